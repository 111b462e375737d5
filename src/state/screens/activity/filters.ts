// What the Activity list's `/` filter knows besides text (grammar: src/state/lists/filter-query.ts).
import {enumField, textField, type FilterFields} from '../../lists/filter-query.js';
import type {ActivityEvent} from '../../tracking/events.js';

export function activityFilters(): FilterFields<ActivityEvent> {
  return {
    noun: 'events',
    fields: [
      enumField('type', ['device', 'user', 'rule', 'configuration'], (e) => e.object.type),
      // The kind as the log writes it (`device.roamed`): `kind:roamed`, `kind:user.`.
      textField('kind', 'kind:roamed', (e) => e.kind),
      // `other`: another client, or the server itself (a handshake, a sign-in).
      enumField('by', ['you', 'other'], (e) => (e.by === 'you' ? 'you' : 'other')),
    ],
    flags: [],
  };
}
