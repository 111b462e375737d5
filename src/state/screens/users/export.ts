// `x` on Users: a user's record in the file, the server's fields with their devices and rules counted.
import type {User} from '../../../api/index.js';
import type {UserRow} from '../../data/snapshot.js';
import type {ExportRecord, ScreenExport} from '../display.js';

const USER_FIELDS: readonly (keyof User)[] = ['id', 'email', 'role', 'disabled_at', 'last_signed_in_at', 'last_signed_in_method', 'inserted_at', 'updated_at'];

export const USER_EXPORT: ScreenExport<UserRow> = {
  records: (rows) =>
    rows.map((row) => {
      const record: ExportRecord = {};
      for (const field of USER_FIELDS) record[field] = row.user[field];
      record.devices = row.devices;
      record.rules = row.rules;
      return record;
    }),
};
