// The rule form (add / edit) and the body it sends.
import type {Rule, RuleWrite} from '../../../api/index.js';
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
      validate: (v, all) => validatePortPair(String(v) || null, str(all, 'port_range')).port_type,
    },
    {
      key: 'port_range',
      label: 'Port range',
      kind: 'text',
      placeholder: 'e.g. 23000-24000',
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

export function ruleBody(values: Values): RuleWrite {
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
