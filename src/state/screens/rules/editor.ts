// `E` on a rule: its fields in the admin's editor (docs/terminal-notes.md, "Handing the terminal to an editor"),
// checked and sent as the edit form does; the user is written as an email ("" for everyone), not
// as the id the form's picker holds.
import type {Rule} from '../../../api/index.js';
import type {ConsoleContext} from '../../core/context.js';
import {describeRule} from '../../access/trace.js';
import {formDocument} from '../../interactions/external-edit-form.js';
import type {EditorDocument} from '../../interactions/external-edit.js';
import {str, type FieldSpec, type Values} from '../../interactions/form.js';
import {OVERLAP_MESSAGE, overlappingRules, ruleBody, ruleChanges, ruleFormInitial, ruleFormSpecs} from './forms.js';

/** 0.7.36's overlap error names no rule: the console names the rules the one asked for overlaps. */
export function namedOverlaps(
  ctx: ConsoleContext,
  asked: Parameters<typeof overlappingRules>[0] | null,
  except: string | null,
  errors: Record<string, string[]>,
): Record<string, string[]> {
  const clash = asked && errors.destination?.includes(OVERLAP_MESSAGE) ? overlappingRules(asked, ctx.snapshot.rules, except) : [];
  if (clash.length === 0) return errors;
  const named = clash.map((r) => describeRule(r, (id) => ctx.snapshot.usersById.get(id)?.email ?? null)).join('; ');
  return {...errors, destination: errors.destination!.map((m) => (m === OVERLAP_MESSAGE ? `${m}: ${named}` : m))};
}

export function ruleEditorDocument(ctx: ConsoleContext, rule: Rule): EditorDocument<Values> {
  const emailOf = (id: string) => ctx.snapshot.usersById.get(id)?.email ?? '';
  const idOf = (email: string) => (email === '' ? '' : (ctx.snapshot.users.find((u) => u.email.toLowerCase() === email.toLowerCase())?.id ?? null));
  const userSpec: FieldSpec = {
    key: 'user',
    label: 'User',
    kind: 'text',
    validate: (v) => (idOf(String(v).trim()) === null ? ['no user has this email ("" applies the rule to everyone)'] : []),
  };
  const specs = ruleFormSpecs().map((s) => (s.key === 'user' ? userSpec : s));
  const byId = ruleFormInitial(rule);
  const withIds = (values: Values): Values => ({...values, user: idOf(str(values, 'user').trim()) ?? ''});
  let asked: ReturnType<typeof ruleBody> | null = null;
  return formDocument({
    what: `rule ${describeRule(rule, (id) => emailOf(id) || null)}`,
    stem: `rule-${rule.destination}`,
    notes: [
      'action is "accept" or "drop"; port_type "" is all protocols (port_range is then not sent), else "tcp" or "udp";',
      'user is the email of the user the rule is for, "" for everyone.',
      'Firezone 0.7.36 applies an edited rule to the firewall only when its service restarts.',
    ],
    specs,
    initial: {...byId, user: rule.user_id === null ? '' : emailOf(rule.user_id)},
    question: `Apply these changes to the rule?`,
    mapErrors: (errors) => namedOverlaps(ctx, asked, rule.id, errors),
    current: async () => {
      const now = (await ctx.client.listRules()).data.find((r) => r.id === rule.id);
      if (!now) throw new Error('The rule is not on the server any more: nothing was sent');
      return {...ruleFormInitial(now), user: now.user_id === null ? '' : emailOf(now.user_id)};
    },
    send: async (values) => {
      const body = ruleChanges(byId, withIds(values));
      asked = ruleBody(withIds(values));
      if (Object.keys(body).length === 0) return () => ctx.message({tone: 'info', text: 'Nothing changed'});
      const saved = (await ctx.client.updateRule(rule.id, body)).data;
      return () =>
        ctx.afterWrite(`Rule updated: ${describeRule(saved, (id) => emailOf(id) || null)}; the firewall keeps the old rule until Firezone restarts (0.7.36)`, {
          screen: 'rules',
          id: saved.id,
        });
    },
  });
}
