// Reading an onboarding file into a plan: every row outcome, before anything is sent.
import {describe, expect, it} from 'vitest';
import type {User} from '../../src/api/index.js';
import {device} from '../fixtures/data.js';
import {detectFormat, importConfigFileName, parseDelimited, planImport, planSendsNothing} from '../../src/state/screens/users/import-plan.js';
import {rowsOf, type DeviceRow} from '../../src/state/data/snapshot.js';

const user = (id: string, email: string, role: 'admin' | 'unprivileged' = 'unprivileged'): User => ({
  id,
  email,
  role,
  disabled_at: null,
  last_signed_in_at: null,
  last_signed_in_method: null,
  inserted_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const deviceRow = (id: string, userId: string, name: string): DeviceRow => rowsOf([device({id, user_id: userId, name})])[0]!;

const snapshot = {
  users: [user('u1', 'Ann@Example.com', 'admin'), user('u2', 'bob@example.com')],
  devices: [deviceRow('d1', 'u1', 'laptop')],
};

describe('parseDelimited', () => {
  it('reads RFC 4180 CSV: quotes, doubled quotes, separators and line breaks inside quotes, CRLF, a BOM, blank lines', () => {
    const text = '\ufeffemail,role,devices\r\n"a@x.io","admin","lap,top;""phone"""\r\n\r\nb@x.io,,"multi\nline"\n';
    const {records, error} = parseDelimited(text, 'csv');
    expect(error).toBeNull();
    expect(records).toEqual([
      {line: 1, fields: ['email', 'role', 'devices']},
      {line: 2, fields: ['a@x.io', 'admin', 'lap,top;"phone"']},
      {line: 4, fields: ['b@x.io', '', 'multi\nline']},
    ]);
  });

  it('takes a quote inside an unquoted field as text, as spreadsheets write it (12" tablet)', () => {
    const {records, error} = parseDelimited('email,devices\nann@x.io,12" tablet;desk "B"\n', 'csv');
    expect(error).toBeNull();
    expect(records[1]!.fields).toEqual(['ann@x.io', '12" tablet;desk "B"']);
    expect(parseDelimited('email\tdevices\nann@x.io\t12" tablet\n', 'tsv').records[1]!.fields).toEqual(['ann@x.io', '12" tablet']);
  });

  it('reads TSV, where commas are data', () => {
    expect(parseDelimited('email\tdevices\na@x.io\tlaptop, the old one\n', 'tsv').records[1]!.fields).toEqual(['a@x.io', 'laptop, the old one']);
  });

  it('an unclosed quote is an error naming its line, not a silent merge of the rest', () => {
    expect(parseDelimited('email\n"a@x.io\nb@x.io\n', 'csv').error).toBe('line 2: a quoted field is never closed');
  });

  it('detects the format by extension, else by a tab in the header', () => {
    expect(detectFormat('team.tsv', 'email,role')).toBe('tsv');
    expect(detectFormat('team.CSV', 'email\trole')).toBe('csv');
    expect(detectFormat('team.txt', 'email\trole')).toBe('tsv');
    expect(detectFormat('team', 'email,role')).toBe('csv');
  });
});

describe('planImport', () => {
  it('gives every row its outcome: new, existing (kept, role not changed), invalid email, invalid role, duplicate', () => {
    const text = [
      'email,role,devices',
      'carol@example.com,admin,laptop;phone',
      'ann@example.com,unprivileged,laptop;tablet',
      'bob@example.com,,',
      'not-an-email,unprivileged,laptop',
      'dan@example.com,Admin,laptop',
      'CAROL@example.com,unprivileged,desk',
      ',unprivileged,',
    ].join('\n');
    const plan = planImport(text, 'csv', snapshot);
    expect(plan.fileErrors).toEqual([]);
    const [carol, ann, bob, bad, dan, carol2, blank] = plan.rows;
    expect(carol).toMatchObject({line: 2, outcome: 'new', role: 'admin'});
    expect(carol!.devices.map((d) => d.outcome)).toEqual(['create', 'create']);
    expect(ann).toMatchObject({outcome: 'existing', userId: 'u1', reason: 'kept as admin (the file says unprivileged; roles are not changed)'});
    expect(ann!.devices).toEqual([
      {name: 'laptop', outcome: 'exists', reason: 'already exists (kept)'},
      {name: 'tablet', outcome: 'create', reason: null},
    ]);
    expect(bob).toMatchObject({outcome: 'existing', reason: 'kept as it is', devices: []});
    // 0.7.36's own wording for the email, and the role cast's "is invalid".
    expect(bad).toMatchObject({outcome: 'invalid', reason: 'email is invalid email address'});
    expect(bad!.devices[0]).toMatchObject({outcome: 'invalid', reason: 'the row is invalid'});
    expect(dan).toMatchObject({outcome: 'invalid', reason: 'role is invalid ("Admin": admin or unprivileged)'});
    expect(carol2).toMatchObject({outcome: 'duplicate', reason: 'duplicate of line 2'});
    expect(blank).toMatchObject({outcome: 'invalid', reason: "email can't be blank"});
    expect(plan.counts).toEqual({newUsers: 1, existingUsers: 2, invalid: 3, duplicates: 1, devices: 3});
  });

  it('device names: too long, listed twice and existing ones are not created', () => {
    const long = 'x'.repeat(256);
    const plan = planImport(`email,devices\ncarol@example.com,ok;${long};ok\n`, 'csv', snapshot);
    expect(plan.rows[0]!.devices.map((d) => [d.outcome, d.reason])).toEqual([
      ['create', null],
      ['invalid', 'name should be at most 255 character(s)'],
      ['duplicate', 'listed twice for this user'],
    ]);
  });

  it('a file applied already plans nothing new', () => {
    const plan = planImport('email,role,devices\nann@example.com,admin,laptop\nbob@example.com,unprivileged,\n', 'csv', snapshot);
    expect(planSendsNothing(plan)).toBe(true);
  });

  it('file errors: empty, no email column, header only; unknown columns are noted and ignored', () => {
    expect(planImport('', 'csv', snapshot).fileErrors[0]).toMatch(/empty/);
    expect(planImport('mail,role\na@x.io,admin\n', 'csv', snapshot).fileErrors[0]).toMatch(/no "email" column/);
    expect(planImport('email,role,devices\n', 'csv', snapshot).fileErrors[0]).toMatch(/no rows/);
    const plan = planImport('email,team,devices\nzed@example.com,blue,phone\n', 'csv', snapshot);
    expect(plan.notes).toEqual(['ignored column: team']);
    expect(plan.rows[0]).toMatchObject({outcome: 'new', role: null});
  });

  it('columns may come in any order and in any case', () => {
    const plan = planImport('Devices\tEMAIL\tRole\nphone\tzed@example.com\tadmin\n', 'tsv', snapshot);
    expect(plan.rows[0]).toMatchObject({email: 'zed@example.com', role: 'admin', outcome: 'new'});
    expect(plan.rows[0]!.devices[0]!.name).toBe('phone');
  });
});

describe('importConfigFileName', () => {
  it('keeps email and device readable and lets no separator, dot-file or control character through', () => {
    expect(importConfigFileName('ann@example.com', 'laptop')).toBe('ann@example.com-laptop.conf');
    expect(importConfigFileName('ann@example.com', '../../etc/passwd')).toBe('ann@example.com-.._.._etc_passwd.conf');
    expect(importConfigFileName('.hidden@x', 'a\x1b[31mb')).toBe('_hidden@x-a__31mb.conf');
  });
});
