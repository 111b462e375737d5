// The structure rules of `npm run lint` (eslint.config.js, `no-restricted-syntax`): a list screen's
// id is compared only on its spec (src/state/screens/), and logic in src/state does not test a
// message's text with `startsWith`. Code is linted as if it were at a path of the repository.
import {join} from 'node:path';
import {ESLint} from 'eslint';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({cwd: root});

/** The `no-restricted-syntax` messages for `code` placed at `path`. */
async function restricted(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, {filePath: join(root, path)});
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const COMPARES = `
export function f(screen: string, id: string): number {
  if (screen === 'devices') return 1;
  if ('rules' !== id) return 2;
  switch (id) {
    case 'activity':
      return 3;
  }
  return 0;
}
`;

describe('structure rules', () => {
  it('a list screen id compared in shared code is an error, each place (===, !==, case)', async () => {
    for (const path of ['src/state/lists/x.ts', 'src/state/input/x.ts', 'src/ui/views/X.tsx', 'src/state/controller.ts']) {
      const found = await restricted(path, COMPARES);
      expect(found, path).toHaveLength(3);
      expect(found[0], path).toMatch(/^A screen fact belongs on its spec/);
    }
  });

  it('the screens and the commands named after them may compare them; other strings and `configuration` pass', async () => {
    expect(await restricted('src/state/screens/devices/x.ts', COMPARES)).toEqual([]);
    expect(await restricted('src/state/commands/x.ts', COMPARES)).toEqual([]);
    const other = "export const f = (screen: string, kind: string) => screen === 'configuration' || kind === 'device' || kind === 'devicesX';\n";
    expect(await restricted('src/state/lists/x.ts', other)).toEqual([]);
  });

  it('startsWith on a message’s or an issue’s text in src/state is an error; on other strings it is not', async () => {
    const code = `
export function f(m: {text: string}, issue: {message: string}, name: string): boolean {
  return m.text.startsWith('Refresh failed') || issue.message.startsWith('not visible') || name.startsWith('alt+');
}
`;
    for (const path of ['src/state/data/x.ts', 'src/state/screens/users/x.ts', 'src/state/commands/x.ts']) {
      const found = await restricted(path, code);
      expect(found, path).toHaveLength(2);
      expect(found[0], path).toMatch(/^Logic does not read display text/);
    }
    const optional = "export const f = (s: {message: {text: string} | null}) => s.message?.text.startsWith('Paste ignored');\n";
    expect(await restricted('src/state/lists/x.ts', optional)).toHaveLength(1);
  });
});
