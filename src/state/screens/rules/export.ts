// `x` on Rules: a rule's record in the file, the server's fields with the email of the user it is bound to.
import type {Rule} from '../../../api/index.js';
import type {ExportRecord, ScreenExport} from '../display.js';

const RULE_FIELDS: readonly (keyof Rule)[] = ['id', 'action', 'destination', 'port_type', 'port_range', 'user_id', 'inserted_at', 'updated_at'];

export const RULE_EXPORT: ScreenExport<Rule> = {
  records: (rules, snapshot) =>
    rules.map((rule) => {
      const record: ExportRecord = {};
      for (const field of RULE_FIELDS) {
        record[field] = rule[field];
        if (field === 'user_id') record.user_email = rule.user_id === null ? null : (snapshot.usersById.get(rule.user_id)?.email ?? null);
      }
      return record;
    }),
};
