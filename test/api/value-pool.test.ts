// Repeated values of decoded devices share one instance (src/api/value-pool.ts).
import {describe, expect, it} from 'vitest';
import {finished} from '../helpers/finish.js';
import {ListCache} from '../../src/api/listcache.js';
import {Device} from '../../src/api/schemas.js';
import {isDeviceFast} from '../../src/api/guards.js';
import {poolDeviceValues, ValuePool} from '../../src/api/value-pool.js';
import {device} from '../fixtures/data.js';

function decodeDevices(devices: Device[]): Device[] {
  const pool = new ValuePool();
  const cache = new ListCache<Device>(
    () => Device,
    isDeviceFast,
    (d) => poolDeviceValues(pool, d),
  );
  const decoder = cache.begin();
  decoder.push(Buffer.from(JSON.stringify({data: devices})));
  return finished(decoder)!.data;
}

describe('ValuePool', () => {
  it('gives devices with equal lists one frozen list, equal to what was sent', () => {
    const [a, b, c] = decodeDevices([
      device({id: 'd-1', allowed_ips: ['0.0.0.0/0', '::/0'], dns: ['1.1.1.1']}),
      device({id: 'd-2', allowed_ips: ['0.0.0.0/0', '::/0'], dns: ['1.1.1.1']}),
      device({id: 'd-3', allowed_ips: ['0.0.0.0/0'], dns: null}),
    ]);
    expect(a!.allowed_ips).toBe(b!.allowed_ips);
    expect(a!.dns).toBe(b!.dns);
    expect(a!.allowed_ips).toEqual(['0.0.0.0/0', '::/0']);
    expect(c!.allowed_ips).toEqual(['0.0.0.0/0']);
    expect(c!.dns).toBeNull();
    expect(Object.isFrozen(a!.allowed_ips)).toBe(true);
    expect(() => (a!.allowed_ips as string[]).push('10.0.0.0/8')).toThrow(TypeError);
  });

  it('keeps lists apart whose elements only join alike', () => {
    const pool = new ValuePool();
    const one = pool.list(['a,b']);
    const two = pool.list(['a', 'b']);
    const nul = pool.list(['a\u0000b']);
    expect(one).toEqual(['a,b']);
    expect(two).toEqual(['a', 'b']);
    expect(nul).toEqual(['a\u0000b']);
    expect(pool.list(['a', 'b'])).toBe(two);
  });

  it('stays bounded: past its size it starts again and still answers equal values', () => {
    const pool = new ValuePool();
    const first = pool.list(['x']);
    for (let i = 0; i < 70_000; i++) pool.list([`n-${i}`]);
    const again = pool.list(['x']);
    expect(again).toEqual(['x']);
    // The earlier instance was forgotten with the rest: a new one, equal.
    expect(again).not.toBe(first);
  });
});
