// The rule form (add / edit) and the body it sends.
import type {Rule, RuleWrite} from '../../../api/index.js';
import {cidrOverlaps, parseCidr} from '../../../common/cidr.js';
import {parsePortRange} from '../../access/evaluate.js';
import {str, type FieldSpec, type Values} from '../../interactions/form.js';
import {validateDestination, validatePortPair} from '../../data/validators.js';

export function ruleFormSpecs(): FieldSpec[] {
  return [
    {
      key: 'action',
      label: 'Action',
      kind: 'choice',
      choices: [
        {value: 'accept', label: 'ACCEPT (allowlist)'},
        {value: 'drop', label: 'DROP (denylist)'},
      ],
    },
    {key: 'destination', label: 'Destination', kind: 'text', placeholder: 'IPv4/6 CIDR range or address', validate: (v) => validateDestination(String(v))},
    {
      key: 'port_type',
      label: 'Port type',
      kind: 'choice',
      choices: [
        {value: '', label: 'All protocols'},
        {value: 'tcp', label: 'TCP'},
        {value: 'udp', label: 'UDP'},
      ],
      // "All protocols" disables the range, so a range left in it from before is not the admin's:
      // it is not sent (ruleBody) and may not fail the pair either.
      validate: (v, all) => validatePortPair(String(v) || null, String(v) === '' ? '' : str(all, 'port_range')).port_type,
    },
    {
      key: 'port_range',
      label: 'Port range',
      kind: 'text',
      placeholder: 'e.g. 23000-24000',
      help: 'A port or a range of ports, 1–65534 (0.7.36 refuses 65535).',
      disabledWhen: (v) => (str(v, 'port_type') === '' ? 'all ports (choose a port type first)' : null),
      validate: (v, all) => validatePortPair(str(all, 'port_type') || null, String(v)).port_range,
    },
    {key: 'user', label: 'User', kind: 'picker', help: 'Enter opens the user picker; none = all users.'},
  ];
}

export function ruleFormInitial(rule: Rule | null): Values {
  return {
    action: rule?.action ?? 'accept',
    destination: rule?.destination ?? '',
    port_type: rule?.port_type ?? '',
    port_range: rule?.port_range ?? '',
    user: rule?.user_id ?? '',
  };
}

export function ruleBody(values: Values): Required<RuleWrite> {
  const portType = str(values, 'port_type');
  const user = str(values, 'user');
  return {
    action: str(values, 'action') === 'accept' ? 'accept' : 'drop',
    destination: str(values, 'destination').trim(),
    port_type: portType === 'tcp' || portType === 'udp' ? portType : null,
    port_range: portType === '' ? null : str(values, 'port_range').trim(),
    user_id: user === '' ? null : user,
  };
}

/**
 * What an edit sends: only the fields the admin changed, so that a field sent as the form opened
 * would not put back a change made since (by another admin, or by this console's own save whose
 * refresh has not landed yet). The port type and range are one setting: 0.7.36 checks them as a
 * pair, so a change to either sends both. Empty when nothing changed.
 */
export function ruleChanges(initial: Values, values: Values): RuleWrite {
  const before = ruleBody(initial);
  const after = ruleBody(values);
  const body: RuleWrite = {};
  if (after.action !== before.action) body.action = after.action;
  if (after.destination !== before.destination) body.destination = after.destination;
  if (after.port_type !== before.port_type || after.port_range !== before.port_range) {
    body.port_type = after.port_type;
    body.port_range = after.port_range;
  }
  if (after.user_id !== before.user_id) body.user_id = after.user_id;
  return body;
}

/** The message 0.7.36 gives for any of its four exclusion constraints on rules. */
export const OVERLAP_MESSAGE = 'destination overlaps with an existing rule';

/**
 * The rules a rule as saved would overlap under 0.7.36's exclusion constraints, which its error
 * does not name (docs/firezone-0.7.36.md, "Rules: overlap constraints"): same scope (global, or
 * the same user), same action, both with ports or both without, destinations that overlap, and
 * for port rules the same protocol and overlapping ranges. `except` is the rule being edited.
 */
export function overlappingRules(
  candidate: Pick<Rule, 'action' | 'destination' | 'port_type' | 'port_range' | 'user_id'>,
  rules: readonly Rule[],
  except: string | null,
): Rule[] {
  const dest = parseCidr(candidate.destination.trim());
  if (!dest) return [];
  const ports = candidate.port_type === null ? null : parsePortRange(candidate.port_range ?? '');
  if (candidate.port_type !== null && ports === null) return [];
  return rules.filter((r) => {
    if (r.id === except || r.action !== candidate.action || r.user_id !== candidate.user_id || (r.port_type === null) !== (candidate.port_type === null))
      return false;
    const other = parseCidr(r.destination.trim());
    if (!other || !cidrOverlaps(other, dest)) return false;
    if (candidate.port_type === null) return true;
    const range = parsePortRange(r.port_range ?? '');
    return r.port_type === candidate.port_type && range !== null && range.from <= ports!.to && ports!.from <= range.to;
  });
}
