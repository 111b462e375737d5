// The user form (add / edit) and the bodies it sends.
import type {User, UserCreate, UserUpdate} from '../../../api/index.js';
import {str, type FieldSpec, type Values} from '../../interactions/form.js';
import {validateEmail, validatePassword} from '../../data/validators.js';
import {glyphs} from '../../core/glyphs.js';

export function userFormSpecs(mode: 'create' | 'edit'): FieldSpec[] {
  const specs: FieldSpec[] = [{key: 'email', label: 'Email', kind: 'text', placeholder: 'e.g. name@example.com', validate: (v) => validateEmail(String(v))}];
  if (mode === 'create') {
    specs.push({
      key: 'role',
      label: 'Role',
      kind: 'choice',
      choices: [
        {value: 'unprivileged', label: 'unprivileged'},
        {value: 'admin', label: 'admin'},
      ],
      help: () => `Admins manage everything; unprivileged users see their own devices. ${glyphs().keyLeft}/${glyphs().keyRight} to change.`,
    });
  }
  specs.push(
    {
      key: 'password',
      label: mode === 'create' ? 'Password' : 'New password',
      kind: 'secret',
      maxLength: 64,
      help:
        mode === 'create'
          ? 'Optional, 12–64 characters. Without one the user signs in through OIDC/SAML only.'
          : 'Leave blank to keep the current password. 12–64 characters.',
      validate: (v, all) => validatePassword(String(v), str(all, 'password_confirmation')).password,
    },
    {
      key: 'password_confirmation',
      label: 'Confirm password',
      kind: 'secret',
      maxLength: 64,
      validate: (_v, all) => validatePassword(str(all, 'password'), str(all, 'password_confirmation')).password_confirmation,
    },
  );
  return specs;
}

export function userCreateBody(values: Values): UserCreate {
  const body: UserCreate = {email: str(values, 'email').trim(), role: str(values, 'role') === 'admin' ? 'admin' : 'unprivileged'};
  if (str(values, 'password') !== '') {
    body.password = str(values, 'password');
    // An empty confirmation is left out, as 0.7.36's own clients do: the server then says
    // "does not match confirmation", the same as the form (test/state/validators-in-step/users-and-devices.test.ts).
    if (str(values, 'password_confirmation') !== '') body.password_confirmation = str(values, 'password_confirmation');
  }
  return body;
}

/** Only what changed: an unchanged email is not re-sent, a blank password means "keep". */
export function userUpdateBody(values: Values, user: User): UserUpdate {
  const body: UserUpdate = {};
  const email = str(values, 'email').trim();
  if (email !== user.email) body.email = email;
  if (str(values, 'password') !== '') {
    body.password = str(values, 'password');
    // An empty confirmation is left out, as 0.7.36's own clients do: the server then says
    // "does not match confirmation", the same as the form (test/state/validators-in-step/users-and-devices.test.ts).
    if (str(values, 'password_confirmation') !== '') body.password_confirmation = str(values, 'password_confirmation');
  }
  return body;
}
