// The user picker (device owner, rule scope): filtered by email, sorted, "everyone" first for rules.
import type {User} from '../../api/index.js';

export function filterUsers(users: readonly User[], filter: string): User[] {
  const f = filter.toLowerCase();
  const matched = f === '' ? [...users] : users.filter((u) => u.email.toLowerCase().includes(f));
  return matched.sort((a, b) => a.email.localeCompare(b.email));
}

/** The picker's values in display order: user ids, and '' for "everyone" until the admin types. */
export function pickerEntries(users: readonly User[], filter: string, allowNone: boolean): string[] {
  return [...(allowNone && filter === '' ? [''] : []), ...filterUsers(users, filter).map((u) => u.id)];
}
