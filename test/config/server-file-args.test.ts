// `fz-console export | plan | apply` on the command line: what parses, what is refused, the help,
// and bash's completion of their options (the completion function driven through COMP_WORDS).
import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {parseCommandLine, UsageError} from '../../src/config/args.js';
import {serverFileHelp} from '../../src/config/cli-spec.js';
import {completionScript} from '../../src/config/completion.js';

const usage = (argv: string[]): string => {
  try {
    parseCommandLine(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('export, plan and apply on the command line', () => {
  it('parse their options with the connection flags; the file is a positional of plan and apply, --output of export', () => {
    expect(parseCommandLine(['plan', 'f.yaml', '--prune', '--profile', 'prod'])).toMatchObject({
      kind: 'server-file',
      verb: 'plan',
      file: 'f.yaml',
      prune: true,
      replace: false,
      yes: false,
      flags: {profile: 'prod', readOnly: false},
    });
    expect(parseCommandLine(['apply', 'f.yaml', '-y', '--replace', '--read-only'])).toMatchObject({
      verb: 'apply',
      yes: true,
      replace: true,
      flags: {readOnly: true},
    });
    expect(parseCommandLine(['export', '-o', 'x.json', '--with-secrets'])).toMatchObject({verb: 'export', file: 'x.json', withSecrets: true, format: null});
    expect(parseCommandLine(['export'])).toMatchObject({verb: 'export', file: null});
    expect(parseCommandLine(['plan', '--help'])).toEqual({kind: 'server-file-help', verb: 'plan'});
  });

  it('refuse what does not fit: no file, two files, a flag of another verb, a bad format, a --token', () => {
    expect(usage(['plan'])).toBe('plan needs one FILE: the document to plan (fz-console plan FILE)');
    expect(usage(['apply', 'a.yaml', 'b.yaml'])).toBe('apply needs one FILE: the document to apply (fz-console apply FILE)');
    expect(usage(['plan', 'a.yaml', '--yes'])).toMatch(/^plan: Unknown option '--yes'/);
    expect(usage(['export', '--prune'])).toMatch(/^export: Unknown option '--prune'/);
    expect(usage(['export', '--format', 'xml'])).toBe('export: --format is yaml or json, got "xml"');
    expect(usage(['export', 'file.yaml'])).toBe('export: unexpected argument "file.yaml" (the file is --output FILE)');
    expect(usage(['apply', 'a.yaml', '--token', 'x'])).toMatch(/^there is no --token flag/);
  });

  it('each verb’s help lists its own options and the exit statuses', () => {
    const plan = serverFileHelp('plan');
    expect(plan).toContain('--prune');
    expect(plan).not.toContain('--with-secrets');
    expect(plan).not.toContain('--output');
    expect(serverFileHelp('export')).not.toContain('--replace');
    expect(plan).not.toMatch(/^ {2}-y, --yes/m);
    expect(plan).toContain('2 when plan');
    expect(serverFileHelp('apply')).toContain('-y, --yes');
    expect(serverFileHelp('export')).toContain('--with-secrets');
  });
});

const bash = spawnSync('sh', ['-c', 'command -v bash']).status === 0;

/** What bash's completion function offers for `words` (the last one being completed). */
function complete(words: string[]): string[] {
  const script = `${completionScript('bash')}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_fz_console; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = spawnSync('bash', ['-c', script], {encoding: 'utf8', cwd: process.cwd()});
  return out.stdout.split('\n').filter(Boolean).sort();
}

describe.skipIf(!bash)('bash completion of export, plan and apply', () => {
  it('offers their options, the two formats, and files for the document', () => {
    expect(complete(['fz-console', 'plan', '--pr'])).toEqual(['--profile', '--prune']);
    expect(complete(['fz-console', 'apply', 'f.yaml', '--y'])).toEqual(['--yes']);
    expect(complete(['fz-console', 'export', '--format', ''])).toEqual(['json', 'yaml']);
    expect(complete(['fz-console', 'export', '--w'])).toEqual(['--with-secrets']);
  });
});
