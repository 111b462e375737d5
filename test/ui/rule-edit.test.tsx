// Editing a rule sends only the fields the admin changed (the port type and range as one pair):
// the form holds the rule as the last poll showed it, and a field sent as it was would put back a
// change made meanwhile.
import {describe, expect, it} from 'vitest';
import type {RuleWrite} from '../../src/api/index.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

describe('rule edit', () => {
  it("another admin's change made while the form is open is kept; a port change sends the pair; an unchanged form sends nothing", async () => {
    const rule = (await fx.client.createRule({action: 'accept', destination: '10.1.0.0/16', port_type: 'tcp', port_range: '443', user_id: null})).data;
    const sent: RuleWrite[] = [];
    const client = clientWith(fx.client, {
      updateRule: (id: string, body: RuleWrite) => {
        sent.push(body);
        return fx.client.updateRule(id, body);
      },
    });
    const app = await renderApp({fixture: fx, client});
    await app.press('screen3');
    await app.waitFor('10.1.0.0/16');
    await app.press('edit', 'list');
    await app.waitFor('Edit rule ACCEPT 10.1.0.0/16 TCP 443');
    // Another admin turns it into a DROP now; the form still shows ACCEPT.
    await fx.client.updateRule(rule.id, {action: 'drop'});
    await app.press('nextField', 'form');
    await app.named('ctrl+u');
    await app.type('10.2.0.0/16');
    await app.press('save');
    await app.waitFor('Rule updated: DROP 10.2.0.0/16 TCP 443');
    expect(sent).toEqual([{destination: '10.2.0.0/16'}]);
    const stored = (await fx.client.listRules()).data.find((r) => r.id === rule.id)!;
    expect({action: stored.action, destination: stored.destination}).toEqual({action: 'drop', destination: '10.2.0.0/16'});

    // Only the range changed: the type goes with it, as 0.7.36 checks the two together (it answers
    // the range as it stores it, "8000 - 8080").
    await app.waitFor(/DROP +10\.2\.0\.0\/16/);
    await app.press('edit', 'list');
    await app.waitFor('Edit rule DROP 10.2.0.0/16 TCP 443');
    await app.press('nextField', 'form', 3);
    await app.named('ctrl+u');
    await app.type('8000-8080');
    await app.press('save');
    await app.waitFor('Rule updated: DROP 10.2.0.0/16 TCP 8000 - 8080');
    expect(sent[1]).toEqual({port_type: 'tcp', port_range: '8000-8080'});

    // Saved again with nothing changed: nothing is sent, and the status line says so.
    await app.waitFor(/tcp 8000 - 8080/);
    await app.press('edit', 'list');
    await app.waitFor('Edit rule DROP 10.2.0.0/16 TCP 8000 - 8080');
    await app.press('save');
    await app.waitFor('Nothing changed');
    expect(sent).toHaveLength(2);
  });
});
