// /v0/users as 0.7.36 implements it (docs/firezone-0.7.36.md, "Users: lookup by id or email" and
// "Users: create, update, delete"; Users.User.Changeset).

import {createHash, randomBytes} from 'node:crypto';
import {Changeset, castEnum, castString, trimString, valueEquals} from '../changeset.js';
import {findUser, newId, now, requireAdmin, type SandboxCore, type Subject} from '../core.js';
import {Crash, Invalid} from '../errors.js';
import {isParamsMap, type Params} from '../json.js';
import type {Role, UserRow} from '../store.js';

// The hash is never rendered; only whether it changed matters, so a salted SHA-256 stands in for Argon2.
function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('base64');
  return `${salt}$${createHash('sha256').update(salt).update(password).digest('base64')}`;
}

/** change_password_changeset/1, run only when `password` changed. */
function passwordChangeset(cs: Changeset): void {
  cs.validateRequired(['password']);
  // validate_confirmation(:password, required: true) compares the raw params
  if (!cs.supplied('password_confirmation')) cs.addError('password_confirmation', "can't be blank");
  else if (!valueEquals(cs.params.password_confirmation, cs.params.password)) cs.addError('password_confirmation', 'does not match confirmation');
  cs.validateLength('password', {min: 12, max: 64});
  const password = cs.change('password');
  if (typeof password === 'string' && password !== '') cs.put('password_hash', hashPassword(password));
  cs.drop('password');
  cs.validateRequired(['password_hash']);
}

function emailChangeset(cs: Changeset): void {
  cs.update('email', (v) => (typeof v === 'string' ? trimString(v) : v));
  cs.validateRequired(['email', 'role']);
  cs.validateFormat('email', /@/, 'is invalid email address');
}

function ensureEmailFree(core: SandboxCore, email: string, self: UserRow | null): void {
  const holder = core.store.userByEmail(email);
  if (holder && holder !== self) throw new Invalid({email: ['has already been taken']});
}

export function listUsers(core: SandboxCore, subject: Subject): UserRow[] {
  requireAdmin(subject);
  return [...core.store.users.values()];
}

export function showUser(core: SandboxCore, subject: Subject, key: string): UserRow {
  requireAdmin(subject);
  return findUser(core, key);
}

export function createUser(core: SandboxCore, subject: Subject, wrapper: unknown): UserRow {
  requireAdmin(subject);
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  // Role is chosen by pattern match in the controller, never cast: only exactly "admin" makes an admin.
  const role: Role = wrapper.role === 'admin' ? 'admin' : 'unprivileged';
  const cs = new Changeset({email: null, password: null, password_confirmation: null, password_hash: null, role}, wrapper);
  cs.cast('email', castString);
  cs.cast('password', castString);
  cs.cast('password_confirmation', castString);
  emailChangeset(cs);
  if (cs.hasChange('password')) passwordChangeset(cs);
  if (!cs.valid) throw new Invalid(cs.errorsJson());
  const email = cs.get('email') as string;
  ensureEmailFree(core, email, null);
  const at = now();
  const user: UserRow = {
    id: newId(),
    email,
    role,
    passwordHash: (cs.get('password_hash') as string | null) ?? null,
    disabledAt: null,
    lastSignedInAt: null,
    lastSignedInMethod: null,
    insertedAt: at,
    updatedAt: at,
  };
  core.store.insertUser(user);
  return user;
}

export function updateUser(core: SandboxCore, subject: Subject, key: string, wrapper: unknown): UserRow {
  requireAdmin(subject);
  const user = findUser(core, key);
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  const params: Params = wrapper;
  const cs = new Changeset({role: user.role, email: user.email, password: null, password_hash: user.passwordHash}, params);
  cs.cast('role', castEnum(['unprivileged', 'admin']));
  cs.validateRequired(['role']);
  if (cs.hasChange('role') && user.id === subject.user.id) cs.addError('role', 'You cannot change your own role');
  cs.cast('email', castString);
  if (cs.hasChange('email')) emailChangeset(cs);
  cs.cast('password', castString);
  if (cs.hasChange('password')) passwordChangeset(cs);
  if (!cs.valid) throw new Invalid(cs.errorsJson());
  if (cs.hasChange('email')) ensureEmailFree(core, cs.get('email') as string, user);
  if (cs.changes.size === 0) return user;
  if (cs.hasChange('role')) user.role = cs.get('role') as Role;
  if (cs.hasChange('email')) core.store.updateUserEmail(user, cs.get('email') as string);
  if (cs.hasChange('password_hash')) user.passwordHash = cs.get('password_hash') as string;
  user.updatedAt = now();
  return user;
}

export function deleteUser(core: SandboxCore, subject: Subject, key: string): void {
  requireAdmin(subject);
  const user = findUser(core, key);
  // {:error, :cant_delete_the_last_admin} is not handled by the FallbackController.
  if (user.role === 'admin' && core.store.adminCount() <= 1) throw new Crash('FunctionClauseError: {:error, :cant_delete_the_last_admin}');
  core.store.deleteUser(user);
}
