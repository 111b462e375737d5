// R on the user of the console's own API token: 0.7.36 refuses a change of one's own role, so the
// console says so at once instead of asking a question whose only answer is that refusal.
import {describe, expect, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

describe('role changes', () => {
  it("the token's own user is refused at once, with the reason; another user is asked", async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.waitFor('user@sandbox.test');
    // The list is sorted by email: admin@sandbox.test, the token's user, is on the first row.
    await app.press('role', 'list');
    const refused = await app.waitFor("is the user of this console's API token");
    expect(refused.replace(/\s*\n\s*/g, ' ')).toContain(
      "admin@sandbox.test is the user of this console's API token: Firezone 0.7.36 refuses a change of one's own role (another admin can make it)",
    );
    expect(refused).not.toMatch(/Demote|Promote/);
    await app.press('down', 'list');
    await app.press('role', 'list');
    await app.waitFor('Promote user@sandbox.test to admin?');
  });
});
