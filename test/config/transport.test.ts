import {describe, expect, it} from 'vitest';
import {isPlainHttpToNetwork} from '../../src/config/transport.js';

describe('isPlainHttpToNetwork', () => {
  it.each([
    'http://vpn.example.com',
    'http://10.0.0.5:13000/',
    'http://192.168.1.1/firezone',
    'http://[2001:db8::1]:8080',
    'http://128.0.0.1',
    'http://localhost.example.com',
    'HTTP://VPN.EXAMPLE.COM',
  ])('%s is plain HTTP over a network', (url) => {
    expect(isPlainHttpToNetwork(url)).toBe(true);
  });

  it.each([
    'https://vpn.example.com',
    'https://10.0.0.5',
    'http://127.0.0.1:13000',
    'http://127.255.0.9',
    'http://localhost:4000/',
    'http://LOCALHOST',
    'http://app.localhost',
    'http://[::1]:13000',
    'http://[::ffff:127.0.0.1]/',
    'not a url',
  ])('%s is not', (url) => {
    expect(isPlainHttpToNetwork(url)).toBe(false);
  });
});
