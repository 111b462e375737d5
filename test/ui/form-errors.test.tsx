// The status line's account of a form's errors stays true while the admin fixes them: it names
// only the fields still wrong, and goes once none are (src/state/interactions/form-errors.ts).
import {describe, expect, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

const statusLine = (frame: string) => frame.trimEnd().split('\n').at(-1)!;

describe('form errors in the status line', () => {
  it("the form's own checks: fixing one field drops it from the message, fixing the last takes the message away", async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.burst('not-an-email\t\tshort\tshort');
    await app.waitFor(/Email\s+not-an-email/);
    await app.press('save');
    const failed = await app.waitFor('Fix the form: Email: is invalid email address; Password: should be at least 12 character(s)');
    expect(statusLine(failed)).toContain('Fix the form: Email');
    // The focus is on the first field in error, Email.
    await app.named('ctrl+u');
    await app.type('ok@example.com');
    const oneLeft = await app.waitFor(/Fix the form: Password: should be at least 12 character\(s\) {2}/);
    expect(oneLeft).not.toContain('Email: is invalid');
    await app.press('nextField', 'form', 2);
    await app.named('ctrl+u');
    await app.type('long-enough-1234');
    // Neither the status line nor the field says anything of it any more.
    await app.waitFor(/^(?![\s\S]*Fix the form)/);
    // The confirmation now differs: the form's check says so on the next save, by name.
    await app.press('save');
    await app.waitFor('Fix the form: Confirm password: does not match confirmation');
  });

  it("the server's 422: editing the field it named takes the message away", async () => {
    await fx.client.createUser({email: 'taken@example.com', role: 'unprivileged'});
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.waitFor('taken@example.com');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.type('taken@example.com');
    await app.press('save');
    const refused = await app.waitFor('Email: has already been taken');
    expect(statusLine(refused)).toContain('Email: has already been taken');
    await app.type('x');
    await app.waitFor(/^(?![\s\S]*has already been taken)/);
  });

  it('a form closed without saving takes its error message with it', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.press('save');
    await app.waitFor("Fix the form: Email: can't be blank");
    // Nothing typed: Esc closes it without asking.
    await app.press('cancel', 'form');
    await app.waitFor(/^(?![\s\S]*Add user)/);
    expect(app.frame()).not.toContain('Fix the form');
  });
});
