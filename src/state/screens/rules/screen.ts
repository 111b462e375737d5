// Rules: listed in the order Firezone's nftables layout applies them, with create / edit / delete.
import type {Rule} from '../../../api/index.js';
import {createForm} from '../../interactions/form.js';
import {formatDate, formatWhen, parseTime} from '../../data/format.js';
import {ruleBody, ruleChanges, ruleFormInitial, ruleFormSpecs} from './forms.js';
import {explainRank, ruleRank} from '../../data/rule-precedence.js';
import {type Snapshot} from '../../data/snapshot.js';
import type {ConsoleContext} from '../../core/context.js';
import {plural} from '../../data/format.js';
import {onList, withItem, type ScreenSpec} from '../spec.js';
import {ruleFilters} from './filters.js';
import {neverDecideIn, type NeverDecides} from '../../access/never-decide.js';
import {describeRule} from '../../access/trace.js';
import {RULE_EXPORT} from './export.js';
import {namedOverlaps, ruleEditorDocument} from './editor.js';
import {editInEditor} from '../../interactions/external-edit.js';

/** Why a rule decides no packet, in the list's NOTE column (the info line counts them as never deciding). */
function noteOf(why: NeverDecides | undefined): string {
  return why === undefined ? '' : why.kind === 'shadowed' ? 'shadowed' : 'user deleted';
}

/** The detail's explanation of a rule that decides nothing. */
function neverDecidesLine(s: Snapshot, why: NeverDecides): string {
  if (why.kind === 'deleted user') return "Bound to a user who no longer exists: 0.7.36 removed that user's chain, so this rule decides no packet";
  const emailOf = (id: string) => s.usersById.get(id)?.email ?? null;
  return `Shadowed by ${describeRule(why.by, emailOf)}: it is checked first in the same chain and covers everything this rule matches, so this rule decides no packet`;
}

export function ruleSummary(rule: Rule): string {
  const ports = rule.port_type === null ? 'all ports' : `${rule.port_type.toUpperCase()} ${rule.port_range ?? ''}`.trim();
  return `${rule.action.toUpperCase()} ${rule.destination} ${ports}`;
}

function scopeOf(s: Snapshot, userId: string | null): string {
  return userId === null ? 'everyone' : (s.usersById.get(userId)?.email ?? userId);
}

// 0.7.36 has no update trigger on rules: an edited rule reaches nftables only when the service
// restarts (docs/firezone-0.7.36.md, "Rules: fields and port ranges"). The admin is told before
// and after saving; :trace says so too while an edited rule is on the path.
const EDIT_WAITS_FOR_RESTART =
  'Firezone 0.7.36 applies an edited rule to the firewall only when its service restarts: until then the old rule stays in force. To change it now, delete the rule and add it again.';

function openRuleForm(ctx: ConsoleContext, rule: Rule | null): void {
  // The rule as the last save asked for it: the server's overlap error names no rule, the console does.
  let asked: Pick<Rule, 'action' | 'destination' | 'port_type' | 'port_range' | 'user_id'> | null = null;
  const specs = ruleFormSpecs().map((s) => (s.key === 'user' ? {...s, display: (v: string | boolean) => scopeOf(ctx.snapshot, String(v) || null)} : s));
  ctx.openForm({
    title: rule ? `Edit rule ${ruleSummary(rule)}` : 'Add rule',
    notes: [
      'Rules apply to all devices unless bound to a user. Per-user rules are checked before global ones; within each, port rules come before port-less ones and accept before drop.',
      ...(rule ? [EDIT_WAITS_FOR_RESTART] : []),
    ],
    form: createForm(specs, ruleFormInitial(rule)),
    pickerAllowsNone: true,
    mapErrors: (errors) => namedOverlaps(ctx, asked, rule?.id ?? null, errors),
    save: async (form) => {
      const body = rule ? ruleChanges(form.initial, form.values) : ruleBody(form.values);
      asked = ruleBody(form.values);
      if (rule && Object.keys(body).length === 0) {
        ctx.close();
        ctx.message({tone: 'info', text: 'Nothing changed'});
        return;
      }
      const saved = (rule ? await ctx.client.updateRule(rule.id, body) : await ctx.client.createRule(body)).data;
      ctx.close();
      ctx.afterWrite(
        rule ? `Rule updated: ${ruleSummary(saved)}; the firewall keeps the old rule until Firezone restarts (0.7.36)` : `Rule added: ${ruleSummary(saved)}`,
        {screen: 'rules', id: saved.id},
      );
    },
  });
}

export const rules: ScreenSpec<Rule> = {
  id: 'rules',
  noun: 'rule',
  source: {from: 'poll', items: (s) => s.rules, deleted: {type: 'rule'}},
  getId: (r) => r.id,
  defaultSort: null,
  // Unsorted, the rules are in the order the firewall checks them.
  ownOrder: 'firewall order',
  // Rules that can decide no packet, counted over all rules (/shadowed, /orphaned list them).
  summary: (s) => {
    const never = neverDecideIn(s).size;
    return never > 0 ? `${never} never decide${never === 1 ? 's' : ''} (/shadowed, /orphaned)` : null;
  },
  filters: (s) => ruleFilters(s),
  columns: (s) => [
    // The list is in precedence order when unsorted, so LVL is not a sort column of its own. A
    // level, 1–8, not a rule's number: many rules share one (`#` was read as a number).
    {key: 'precedence', header: 'LVL', priority: 1, width: 3, align: 'right', cell: (r) => String(ruleRank(r) + 1)},
    {
      key: 'action',
      header: 'ACTION',
      priority: 1,
      width: 6,
      cell: (r) => r.action.toUpperCase(),
      tone: (r) => (r.action === 'accept' ? 'ok' : 'danger'),
      sortValue: (r) => r.action,
      searchText: (r) => r.action,
    },
    {
      key: 'destination',
      header: 'DESTINATION',
      priority: 1,
      width: {min: 18, max: 43, flex: 2},
      cell: (r) => r.destination,
      sortValue: (r) => r.destination,
      searchText: (r) => r.destination,
    },
    {
      key: 'ports',
      header: 'PROTOCOL/PORTS',
      priority: 2,
      width: 16,
      cell: (r) => (r.port_type === null ? 'all' : `${r.port_type} ${r.port_range ?? ''}`),
      sortValue: (r) => (r.port_type === null ? null : `${r.port_type} ${r.port_range ?? ''}`),
      searchText: (r) => `${r.port_type ?? ''} ${r.port_range ?? ''}`,
    },
    {
      key: 'scope',
      header: 'SCOPE',
      priority: 2,
      width: {min: 12, max: 40, flex: 2},
      cell: (r) => scopeOf(s, r.user_id),
      sortValue: (r) => scopeOf(s, r.user_id),
      searchText: (r) => scopeOf(s, r.user_id),
    },
    {
      // Rules that can decide no packet (src/state/access/never-decide.ts).
      key: 'note',
      header: 'NOTE',
      priority: 3,
      // Empty on every row unless some rule never decides: then only its header's width, and the
      // room goes to SCOPE's emails.
      width: neverDecideIn(s).size > 0 ? {min: 12, max: 28, flex: 1} : 4,
      cell: (r) => noteOf(neverDecideIn(s).get(r.id)),
      tone: (r) => (neverDecideIn(s).has(r.id) ? 'warning' : undefined),
      sortValue: (r) => noteOf(neverDecideIn(s).get(r.id)) || null,
      searchText: (r) => noteOf(neverDecideIn(s).get(r.id)),
    },
    {
      key: 'created',
      header: 'CREATED',
      priority: 4,
      width: 10,
      cell: (r) => formatDate(parseTime(r.inserted_at) ?? 0),
      sortValue: (r) => r.inserted_at,
      defaultDesc: true,
    },
  ],
  title: (r) => ruleSummary(r),
  detail: (r, {snapshot, now}) => {
    const why = neverDecideIn(snapshot).get(r.id);
    return [
      {heading: true, value: 'Rule'},
      ...(why ? [{label: 'Never decides', value: neverDecidesLine(snapshot, why), tone: 'warning' as const}] : []),
      {label: 'Action', value: r.action.toUpperCase(), tone: r.action === 'accept' ? 'ok' : 'danger'},
      {label: 'Destination', value: r.destination},
      {label: 'Protocol', value: r.port_type ?? 'all protocols'},
      {label: 'Port range', value: r.port_range ?? 'all ports'},
      {label: 'Scope', value: r.user_id === null ? 'everyone (global rule)' : scopeOf(snapshot, r.user_id)},
      {label: 'Precedence', value: `${ruleRank(r) + 1} of 8 levels — ${explainRank(r)}`},
      {label: 'Created', value: formatWhen(parseTime(r.inserted_at), now)},
      {label: 'Updated', value: formatWhen(parseTime(r.updated_at), now)},
      {label: 'ID', value: r.id},
    ];
  },
  copyValue: (r) => ({label: 'destination', value: r.destination}),
  raw: (r) => r,
  export: RULE_EXPORT,
  actions: {
    new: onList({verb: 'creating rules', where: ['list'], run: (ctx) => openRuleForm(ctx, null)}),
    edit: withItem({verb: 'editing rules', run: (ctx, rule) => openRuleForm(ctx, rule)}),
    editor: withItem({verb: 'editing rules', run: (ctx, rule) => editInEditor(ctx, ruleEditorDocument(ctx, rule))}),
    delete: {
      verb: 'deleting rules',
      remove: (client, id) => client.deleteRule(id),
      present: async (client) => new Set((await client.listRules()).data.map((x) => x.id)),
      one: (_ctx, rule) => {
        const summary = ruleSummary(rule);
        return {label: summary, title: `Delete rule ${summary}?`, lines: [], done: `Deleted rule ${summary}`, kept: {users: [], devices: [], rules: [rule]}};
      },
      question: (rules) => `Delete ${plural(rules.length, 'rule')}?`,
    },
  },
  keyHelp: {list: {sortBy: 'the firewall order'}},
};
