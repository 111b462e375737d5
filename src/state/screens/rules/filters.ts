// What the Rules list's `/` filter knows besides text (grammar: src/state/lists/filter-query.ts).
import type {Rule} from '../../../api/index.js';
import {cidrContains, parseCidr, type Cidr} from '../../../common/cidr.js';
import type {Snapshot} from '../../data/snapshot.js';
import {enumField, field, flag, type FilterFields} from '../../lists/filter-query.js';
import {neverDecideIn} from '../../access/never-decide.js';

/** A rule's `port_range` as 0.7.36 renders it (`443`, `8000 - 9000`), or null if it has none or it does not read. */
export function portBounds(range: string | null): {lower: number; upper: number} | null {
  const m = range === null ? null : /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(range);
  if (!m) return null;
  const lower = Number(m[1]);
  return {lower, upper: m[2] === undefined ? lower : Number(m[2])};
}

export function ruleFilters(snapshot: Pick<Snapshot, 'usersById' | 'rules'>): FilterFields<Rule> {
  // A rule of a user deleted meanwhile shows its id, as the SCOPE column does.
  const ownerOf = (r: Rule): string => (r.user_id === null ? '' : (snapshot.usersById.get(r.user_id)?.email ?? r.user_id).toLowerCase());
  const destinations = new Map<string, Cidr | null>();
  const destinationOf = (r: Rule): Cidr | null => {
    let c = destinations.get(r.destination);
    if (c === undefined) {
      c = parseCidr(r.destination);
      destinations.set(r.destination, c);
    }
    return c;
  };
  return {
    noun: 'rules',
    fields: [
      enumField('action', ['accept', 'drop'], (r) => r.action),
      // `user:global` (or `everyone`, as the SCOPE column says): the rules of no user.
      field('user', [':'], 'user:ann@example.com', (_op, value) => {
        const wanted = value.toLowerCase();
        if (wanted === 'global' || wanted === 'everyone') return (r) => r.user_id === null;
        return (r) => r.user_id !== null && ownerOf(r).includes(wanted);
      }),
      field('port', [':'], 'port:443', (_op, value) => {
        const wanted = value.toLowerCase();
        if (wanted === 'none') return (r) => r.port_type === null;
        if (wanted === 'tcp' || wanted === 'udp') return (r) => r.port_type === wanted;
        if (!/^\d{1,5}$/.test(wanted) || Number(wanted) > 65535) return {error: 'port is a port number, none, tcp or udp'};
        const port = Number(wanted);
        return (r) => {
          const bounds = r.port_type === null ? null : portBounds(r.port_range);
          return bounds !== null && bounds.lower <= port && port <= bounds.upper;
        };
      }),
      // The rules whose destination holds the address or block given, as nftables would match it.
      field('dest', [':'], 'dest:10.2.3.4', (_op, value) => {
        const target = parseCidr(value);
        if (target === null) return {error: 'not an address or CIDR (e.g. dest:10.2.3.4, dest:10.0.0.0/8)'};
        return (r) => {
          const destination = destinationOf(r);
          return destination !== null && cidrContains(destination, target);
        };
      }),
    ],
    // Rules that decide no packet (src/state/access/never-decide.ts).
    flags: [
      flag('shadowed', (r) => neverDecideIn(snapshot).get(r.id)?.kind === 'shadowed'),
      flag('orphaned', (r) => neverDecideIn(snapshot).get(r.id)?.kind === 'deleted user'),
    ],
  };
}
