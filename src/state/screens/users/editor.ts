// `E` on a user: the email and role in the admin's editor (docs/terminal-notes.md,
// "Handing the terminal to an editor"). The email is checked as the edit form checks it and the role as the create form's
// choice; a password is never written to a file (`e` sets one).
import type {UserUpdate} from '../../../api/index.js';
import type {ConsoleContext} from '../../core/context.js';
import type {UserRow} from '../../data/snapshot.js';
import {formDocument} from '../../interactions/external-edit-form.js';
import type {EditorDocument} from '../../interactions/external-edit.js';
import {str, type Values} from '../../interactions/form.js';
import {userFormSpecs} from './forms.js';

export function userEditorDocument(ctx: ConsoleContext, row: UserRow): EditorDocument<Values> {
  const user = row.user;
  const email = userFormSpecs('edit').find((s) => s.key === 'email')!;
  const role = userFormSpecs('create').find((s) => s.key === 'role')!;
  return formDocument({
    what: `user ${user.email}`,
    stem: `user-${user.email}`,
    notes: ['role is "admin" or "unprivileged"; Firezone 0.7.36 refuses a change of one\'s own role.', 'A password is never written here: `e` sets one.'],
    specs: [email, role],
    initial: {email: user.email, role: user.role},
    question: `Apply these changes to user ${user.email}?`,
    current: async () => {
      const now = (await ctx.client.listUsers()).data.find((u) => u.id === user.id);
      if (!now) throw new Error(`${user.email} is not on the server any more: nothing was sent`);
      return {email: now.email, role: now.role};
    },
    send: async (values: Values) => {
      const body: UserUpdate = {};
      const next = str(values, 'email').trim();
      if (next !== user.email) body.email = next;
      if (str(values, 'role') !== user.role) body.role = str(values, 'role') === 'admin' ? 'admin' : 'unprivileged';
      if (Object.keys(body).length === 0) return () => ctx.message({tone: 'info', text: 'Nothing changed'});
      const saved = (await ctx.client.updateUser(user.id, body)).data;
      return () => ctx.afterWrite(`User updated successfully: ${saved.email} (${saved.role})`);
    },
  });
}
