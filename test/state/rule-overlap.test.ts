// Which existing rules a rule would overlap under 0.7.36's four exclusion constraints
// (docs/firezone-0.7.36.md, "Rules: overlap constraints"): the console names them, the server does not.
import {describe, expect, it} from 'vitest';
import type {Rule} from '../../src/api/index.js';
import {overlappingRules} from '../../src/state/screens/rules/forms.js';
import {rule} from '../fixtures/data.js';

const base = {action: 'accept', destination: '10.5.1.0/24', port_type: null, port_range: null, user_id: null} as const;
const ids = (rules: Rule[]) => rules.map((r) => r.id);

describe('overlappingRules', () => {
  it('same scope, action and kind, and destinations that overlap either way', () => {
    const wider = rule({id: 'wider', action: 'accept', destination: '10.5.0.0/16'});
    const narrower = rule({id: 'narrower', action: 'accept', destination: '10.5.1.7'});
    const beside = rule({id: 'beside', action: 'accept', destination: '10.5.2.0/24'});
    const drop = rule({id: 'drop', action: 'drop', destination: '10.5.0.0/16'});
    const userRule = rule({id: 'user', action: 'accept', destination: '10.5.0.0/16', user_id: 'u-1'});
    const ported = rule({id: 'ported', action: 'accept', destination: '10.5.0.0/16', port_type: 'tcp', port_range: '22'});
    const v6 = rule({id: 'v6', action: 'accept', destination: '::/0'});
    expect(ids(overlappingRules(base, [wider, narrower, beside, drop, userRule, ported, v6], null))).toEqual(['wider', 'narrower']);
    // The rule being edited does not overlap itself.
    expect(ids(overlappingRules(base, [wider], 'wider'))).toEqual([]);
    // A user's rule meets that user's rules only.
    expect(ids(overlappingRules({...base, user_id: 'u-1'}, [wider, userRule], null))).toEqual(['user']);
  });

  it('port rules: the same protocol and ranges that share a port', () => {
    const tcp = {...base, port_type: 'tcp', port_range: '20 - 30'} as const;
    const rules = [
      rule({id: 'shares-30', action: 'accept', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '30 - 40'}),
      rule({id: 'after', action: 'accept', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '31 - 40'}),
      rule({id: 'before', action: 'accept', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '19'}),
      rule({id: 'udp', action: 'accept', destination: '10.0.0.0/8', port_type: 'udp', port_range: '25'}),
      rule({id: 'inside', action: 'accept', destination: '10.5.1.9', port_type: 'tcp', port_range: '25'}),
      rule({id: 'portless', action: 'accept', destination: '10.0.0.0/8'}),
    ];
    expect(ids(overlappingRules(tcp, rules, null))).toEqual(['shares-30', 'inside']);
  });

  it('nothing to name for what the server could not have stored', () => {
    expect(overlappingRules({...base, destination: 'nowhere'}, [rule({action: 'accept', destination: '10.0.0.0/8'})], null)).toEqual([]);
    expect(
      overlappingRules(
        {...base, port_type: 'tcp', port_range: 'lots'},
        [rule({action: 'accept', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '1'})],
        null,
      ),
    ).toEqual([]);
    expect(overlappingRules(base, [rule({id: 'bad', action: 'accept', destination: 'nowhere'})], null)).toEqual([]);
  });
});
