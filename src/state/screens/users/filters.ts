// What the Users list's `/` filter knows besides text (grammar: src/state/lists/filter-query.ts).
import {parseTime} from '../../data/format.js';
import {vpnStatus, type Snapshot, type UserRow} from '../../data/snapshot.js';
import {ageField, countField, enumField, sizeField, textField, type FilterFields} from '../../lists/filter-query.js';
import {trafficOf, type TrafficSource} from './traffic.js';

export function userFilters(snapshot: Pick<Snapshot, 'configuration'> & TrafficSource): FilterFields<UserRow> {
  // The VPN column's status (0.7.36's tag): EXPIRED depends on the session duration and the time.
  const duration = snapshot.configuration?.vpn_session_duration ?? 0;
  return {
    noun: 'users',
    fields: [
      textField('email', 'email:ann@', (r) => r.user.email),
      enumField('role', ['admin', 'unprivileged'], (r) => r.user.role),
      enumField('status', ['enabled', 'disabled', 'expired'], (r, now) => vpnStatus(r.user, duration, now).toLowerCase()),
      textField('signin', 'signin:oidc', (r) => r.user.last_signed_in_method),
      countField('devices', 'devices>3', (r) => r.devices),
      countField('online', 'online>0', (r) => trafficOf(snapshot, r.user.id).online),
      // rx/s + tx/s of their devices, as of the poll (the RATE column's sort).
      sizeField('rate', 'rate>1MB/s', (r) => trafficOf(snapshot, r.user.id).rate, true),
      countField('rules', 'rules:0', (r) => r.rules),
      ageField('seen', 'seen>90d', (r) => parseTime(r.user.last_signed_in_at)),
    ],
    flags: [],
  };
}
