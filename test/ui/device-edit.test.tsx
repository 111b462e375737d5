// Editing a device sends only the fields the admin changed: the form holds the device as the last
// poll showed it, and a field sent as it was would put back a change made meanwhile.
import {describe, expect, it} from 'vitest';
import type {DeviceUpdate} from '../../src/api/index.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';

const fx = useSandbox({seed: 'empty'});

describe('device edit', () => {
  it('a rename made by someone else while the form is open is kept when the admin changes only the description; an unchanged form sends nothing', async () => {
    const owner = (await fx.client.listUsers()).data[0]!;
    const device = (await fx.client.createDevice({user_id: owner.id, public_key: publicKey(), name: 'laptop-old', description: 'before'})).data;
    const sent: DeviceUpdate[] = [];
    const client = clientWith(fx.client, {
      updateDevice: (id: string, body: DeviceUpdate) => {
        sent.push(body);
        return fx.client.updateDevice(id, body);
      },
    });
    const app = await renderApp({fixture: fx, client});
    await app.waitFor('laptop-old');
    await app.press('edit', 'list');
    await app.waitFor('Edit device laptop-old');
    // Another admin renames it now; the form still shows the old name.
    await fx.client.updateDevice(device.id, {name: 'laptop-new'});
    await app.press('nextField', 'form');
    await app.named('ctrl+u');
    await app.type('after');
    await app.press('save');
    await app.waitFor('Device updated: laptop-new');
    expect(sent).toEqual([{description: 'after'}]);
    const now = (await fx.client.getDevice(device.id)).data;
    expect({name: now.name, description: now.description}).toEqual({name: 'laptop-new', description: 'after'});
    // The refresh shows the other admin's name on the row (the status line has it already).
    await app.waitFor(/^ +\S+ laptop-new /m);
    // Saved again with nothing changed: nothing is sent, and the status line says so.
    await app.press('edit', 'list');
    await app.waitFor('Edit device laptop-new');
    await app.press('save');
    await app.waitFor('Nothing changed');
    expect(sent).toHaveLength(1);
  });
});
