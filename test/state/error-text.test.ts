// How an error is said in the status line (errorText in src/state/core/state.ts).
import {describe, expect, it} from 'vitest';
import {errorText} from '../../src/state/core/state.js';

describe('errorText', () => {
  it("a part of the console that loads when first needed and is gone (upgraded under a running console): what to do, not Node's path", async () => {
    const missing = await import(/* @vite-ignore */ `${'file:///'}nonexistent-${process.pid}/chunks/in-console-XXXX.js`).catch((err: unknown) => err);
    expect((missing as {code?: string}).code).toBe('ERR_MODULE_NOT_FOUND');
    expect(errorText(missing)).toBe(
      'fz-console changed on disk while it ran (upgraded or removed): a part of it that loads when first needed is gone; quit and start it again',
    );
  });

  it('any other error as its message; anything else as a string', () => {
    expect(errorText(new Error('Cannot reach vpn.example.com'))).toBe('Cannot reach vpn.example.com');
    expect(errorText(Object.assign(new Error('no such file'), {code: 'ENOENT'}))).toBe('no such file');
    expect(errorText('plain')).toBe('plain');
  });
});
