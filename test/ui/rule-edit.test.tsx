// Editing a rule sends only the fields the admin changed (the port type and range as one pair):
// the form holds the rule as the last poll showed it, and a field sent as it was would put back a
// change made meanwhile.
import {describe, expect, it} from 'vitest';
import type {RuleWrite} from '../../src/api/index.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

describe('rule edit', () => {
  it("another admin's change made while the form is open is kept; a port change sends the pair, back to all protocols too; an unchanged form sends nothing", async () => {
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
    const form = await app.waitFor('Edit rule ACCEPT 10.1.0.0/16 TCP 443');
    // 0.7.36 applies an edited rule only after a restart: the form says so before the admin saves.
    expect(form.replace(/\s*\n\s*/g, ' ')).toContain('applies an edited rule to the firewall only when its service restarts');
    // Another admin turns it into a DROP now; the form still shows ACCEPT.
    await fx.client.updateRule(rule.id, {action: 'drop'});
    await app.press('nextField', 'form');
    await app.named('ctrl+u');
    await app.type('10.2.0.0/16');
    await app.press('save');
    const updated = await app.waitFor('Rule updated: DROP 10.2.0.0/16 TCP 443;');
    // And the status line says so after (on two lines when long).
    expect(updated.replace(/\s*\n\s*/g, ' ')).toContain(
      'Rule updated: DROP 10.2.0.0/16 TCP 443; the firewall keeps the old rule until Firezone restarts (0.7.36)',
    );
    expect(sent).toEqual([{destination: '10.2.0.0/16'}]);
    const stored = (await fx.client.listRules()).data.find((r) => r.id === rule.id)!;
    expect({action: stored.action, destination: stored.destination}).toEqual({action: 'drop', destination: '10.2.0.0/16'});

    // Only the range changed: the type goes with it, as 0.7.36 checks the two together (it answers
    // the range as it stores it, "8000 - 8080").
    await app.waitFor(/DROP +10\.2\.0\.0\/16 +tcp 443/);
    await app.press('edit', 'list');
    await app.waitFor('Edit rule DROP 10.2.0.0/16 TCP 443');
    await app.press('nextField', 'form', 3);
    // The range's bounds are said where it is typed.
    await app.waitFor('A port or a range of ports, 1–65534 (0.7.36 refuses 65535).');
    await app.named('ctrl+u');
    await app.type('8000-8080');
    await app.press('save');
    await app.waitFor('Rule updated: DROP 10.2.0.0/16 TCP 8000 - 8080;');
    expect(sent[1]).toEqual({port_type: 'tcp', port_range: '8000-8080'});

    // Back to all protocols: the range still in its (now disabled) field is neither checked nor
    // sent, and both go together.
    await app.waitFor(/tcp 8000 - 8080/);
    await app.press('edit', 'list');
    await app.waitFor('Edit rule DROP 10.2.0.0/16 TCP 8000 - 8080');
    await app.press('nextField', 'form', 2);
    await app.named('left');
    await app.waitFor(/Port type\s+‹ All protocols ›/);
    await app.press('save');
    await app.waitFor('Rule updated: DROP 10.2.0.0/16 all ports;');
    expect(sent[2]).toEqual({port_type: null, port_range: null});

    // Saved again with nothing changed: nothing is sent, and the status line says so.
    // The row, not the status line, which says the same before the refresh lands.
    await app.waitFor(/DROP +10\.2\.0\.0\/16 +all +everyone/);
    await app.press('edit', 'list');
    await app.waitFor('Edit rule DROP 10.2.0.0/16 all ports');
    await app.press('save');
    await app.waitFor('Nothing changed');
    expect(sent).toHaveLength(3);
  });

  it("the server's overlap refusal names the rule it overlaps, which 0.7.36's message does not", async () => {
    await fx.client.createRule({action: 'accept', destination: '10.5.0.0/16', port_type: null, port_range: null, user_id: null});
    // Not in the way: a drop, and a port rule, over the same addresses.
    await fx.client.createRule({action: 'drop', destination: '10.5.0.0/16', port_type: null, port_range: null, user_id: null});
    await fx.client.createRule({action: 'accept', destination: '10.5.0.0/16', port_type: 'tcp', port_range: '22', user_id: null});
    const app = await renderApp({fixture: fx});
    await app.press('screen3');
    await app.waitFor('10.5.0.0/16');
    await app.press('new', 'list');
    await app.waitFor('Add rule');
    await app.press('nextField', 'form');
    await app.type('10.5.1.0/24');
    await app.press('save');
    const refused = await app.waitFor('destination overlaps with an existing rule: ACCEPT 10.5.0.0/16 all ports · global');
    expect(refused).not.toMatch(/DROP 10\.5\.0\.0\/16|tcp 22 · global/);
  });
});
