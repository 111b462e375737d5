// Exporting a list: CSV quoting, spreadsheet formulas neutralised, no secrets unless asked.
import {describe, expect, it} from 'vitest';
import {device as deviceOf, user} from '../fixtures/data.js';
import {formatForPath, toCsv, toJson} from '../../src/state/lists/export.js';
import {DEVICE_EXPORT} from '../../src/state/screens/devices/export.js';
import {rowsOf, type DeviceRow, type Snapshot} from '../../src/state/data/snapshot.js';

const device = deviceOf({
  id: 'd1',
  user_id: 'u1',
  name: '=HYPERLINK("http://evil","click")',
  description: 'line one\nline "two", three',
  public_key: 'pub',
  preshared_key: 'SECRET-PSK',
  allowed_ips: ['0.0.0.0/0', '::/0'],
  mtu: 1280,
  latest_handshake: null,
});
const rows: DeviceRow[] = rowsOf([device], new Map([['u1', user({id: 'u1', email: 'ann@example.com'})]]));
const snapshot = {usersById: new Map()} as unknown as Snapshot;

describe('export', () => {
  it('leaves preshared keys out unless asked', () => {
    expect(DEVICE_EXPORT.records(rows, snapshot, false)[0]).not.toHaveProperty('preshared_key');
    expect(DEVICE_EXPORT.records(rows, snapshot, true)[0]).toHaveProperty('preshared_key', 'SECRET-PSK');
    expect(toCsv(DEVICE_EXPORT.records(rows, snapshot, false))).not.toContain('SECRET-PSK');
  });

  it('adds the owner email after the user id', () => {
    const keys = Object.keys(DEVICE_EXPORT.records(rows, snapshot, false)[0]!);
    expect(keys.slice(keys.indexOf('user_id'), keys.indexOf('user_id') + 2)).toEqual(['user_id', 'owner_email']);
  });

  it('CSV: RFC 4180 quoting, lists joined with ;, nulls empty, formulas neutralised', () => {
    const csv = toCsv(DEVICE_EXPORT.records(rows, snapshot, false));
    const [header, line] = csv.split('\r\n');
    expect(header!.startsWith('id,name,description,user_id,owner_email')).toBe(true);
    expect(line).toContain(`"'=HYPERLINK(""http://evil"",""click"")"`);
    expect(line).toContain('"line one\nline ""two"", three"');
    expect(line).toContain('0.0.0.0/0;::/0');
    expect(line).toContain(',1280,');
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('JSON keeps values as they are (a parser, not a spreadsheet, reads it)', () => {
    const parsed = JSON.parse(toJson(DEVICE_EXPORT.records(rows, snapshot, false)));
    expect(parsed[0].name).toBe(device.name);
    expect(parsed[0].allowed_ips).toEqual(['0.0.0.0/0', '::/0']);
  });

  it('.json means JSON, anything else CSV', () => {
    expect(formatForPath('out.JSON ')).toBe('json');
    expect(formatForPath('out.csv')).toBe('csv');
    expect(formatForPath('out')).toBe('csv');
  });
});
