// A detail whose item another client deleted: the keys that act on it say why they do nothing,
// instead of doing nothing without a word.
import {describe, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';

const fx = useSandbox({seed: 'empty'});

describe('a detail whose item is gone', () => {
  it('e, d, v and c say the device is not on the server any more', async () => {
    const owner = (await fx.client.listUsers()).data[0]!;
    const device = (await fx.client.createDevice({user_id: owner.id, public_key: publicKey(), name: 'vault'})).data;
    const app = await renderApp({fixture: fx});
    await app.waitFor('vault');
    await app.press('open', 'list');
    await app.waitFor(/Public key/);
    await fx.client.deleteDevice(device.id);
    await app.press('refresh');
    // It stays shown, marked deleted, for a few seconds first (as on the list).
    await app.waitFor('This device is not on the server any more', 15_000);
    let paused = false;
    for (const action of ['edit', 'delete', 'reveal', 'copy'] as const) {
      await app.press(action, 'detail');
      await app.waitFor('there is nothing to act on (Esc returns to the list)');
      // Another message in between, so that each key is seen to say it.
      await app.press('pause');
      paused = !paused;
      await app.waitFor(paused ? 'Live updates paused' : 'Live updates resumed');
    }
  });
});
