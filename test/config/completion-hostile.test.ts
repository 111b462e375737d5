// Shell completion never evaluates a profile name (src/config/completion.ts): profiles named
// `$(touch …)`, `` `touch …` ``, fish's `(touch …)`, `*` or with a `;` complete as those very
// names, in real bash, zsh and fish, and nothing runs; a name with a line break or an escape is
// not offered. bash's completion function is driven directly (COMP_WORDS); zsh and fish are typed
// at in tmux, Tab pressed, and the inserted word handed to printf by the shell itself.
import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {completionScript} from '../../src/config/completion.js';
import {BIN, hasBinary, hasTmux, Terminal} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const missing = (shell: string) =>
  !hasBinary() ? 'no dist/fz-console.js (npm run build)' : !has(shell) ? `no ${shell} installed (.ci/run installs it)` : null;
for (const shell of ['bash', 'zsh', 'fish']) {
  const why = missing(shell) ?? (shell !== 'bash' && !hasTmux() ? 'no tmux' : null);
  if (why) console.warn(`completion-hostile: ${shell} skipped (${why})`);
}

const tmp = new TempDirs();
let home: string;
/** Where the names' commands would create files if they ran: stays empty. */
let marks: string;
/** The shells' working folder, with files a `*` would match. */
let cwd: string;
let env: NodeJS.ProcessEnv;
const names = () => ({
  dollar: `d$(touch ${marks}/dollar)`,
  backquote: `b\`touch ${marks}/backquote\``,
  fish: `f(touch ${marks}/fish)`,
  star: 's*',
  semicolon: 'q a;b',
});

beforeAll(() => {
  home = tmp.make('fzc-compl-');
  marks = join(home, 'marks');
  cwd = join(home, 'cwd');
  for (const dir of [marks, cwd, join(home, 'bin'), join(home, 'config', 'fz-console')]) mkdirSync(dir, {recursive: true});
  for (const file of ['s1', 's2', 'qx']) writeFileSync(join(cwd, file), '');
  writeFileSync(join(home, 'bin', 'fz-console'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(home, 'bin', 'fz-console'), 0o755);
  const profiles = Object.fromEntries(
    [...Object.values(names()), 'prod', 'n1\nn2', 'e\u001b]0;title\u0007', 'r\u202eevil'].map((name) => [name, {url: 'https://x.example'}]),
  );
  const config = join(home, 'config', 'fz-console', 'config.json');
  writeFileSync(config, JSON.stringify({profiles}), {mode: 0o600});
  env = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), PATH: `${join(home, 'bin')}:${process.env.PATH}`};
});
afterAll(() => tmp.remove());

describe.skipIf(!hasBinary())('the names the binary offers', () => {
  it('are one line of visible text each: a line break or a control character is not offered', () => {
    const out = execFileSync('fz-console', ['completion', '--profiles'], {encoding: 'utf8', env});
    expect(out.split('\n').sort()).toEqual(['', ...Object.values(names()), 'prod'].sort());
  });
});

describe.skipIf(missing('bash') !== null)('bash', () => {
  /** COMPREPLY for the words typed so far, each also read back by bash as the one word it stands for. */
  function complete(typed: string[]): {reply: string[]; words: string[]} {
    const script = join(home, 'completion.bash');
    writeFileSync(script, completionScript('bash'));
    const quoted = typed.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '-c',
        `source ${script}; COMP_WORDS=(${quoted}); COMP_CWORD=${typed.length - 1}; _fz_console
         for r in "\${COMPREPLY[@]}"; do printf 'R%s\\0' "$r"; eval "w=($r)"; printf 'W%s\\0' "\${w[@]}"; done`,
      ],
      {encoding: 'utf8', env, cwd},
    );
    const items = out.split('\0').filter(Boolean);
    return {reply: items.filter((i) => i.startsWith('R')).map((i) => i.slice(1)), words: items.filter((i) => i.startsWith('W')).map((i) => i.slice(1))};
  }

  it('offers each name quoted, as the name itself, and runs nothing', () => {
    const n = names();
    const all = complete(['fz-console', '--profile', '']);
    expect(all.reply.sort()).toEqual(
      [`d\\$\\(touch\\ ${marks}/dollar\\)`, `b\\\`touch\\ ${marks}/backquote\\\``, `f\\(touch\\ ${marks}/fish\\)`, 's\\*', 'q\\ a\\;b', 'prod'].sort(),
    );
    // Read back by bash, each reply is one word: the name.
    expect(all.words.sort()).toEqual([...Object.values(n), 'prod'].sort());
    expect(complete(['fz-console', '--profile', 's']).reply).toEqual(['s\\*']);
    expect(complete(['fz-console', 'activity', '--profile', 'd']).words).toEqual([n.dollar]);
    // What was typed so far may be the quoted form.
    expect(complete(['fz-console', '--profile', 'q\\ a']).words).toEqual([n.semicolon]);
    expect(readdirSync(marks)).toEqual([]);
  });

  it('file names and words are never split or globbed', () => {
    const added = ['two words.pem', '*.pem'].map((name) => join(cwd, name));
    for (const file of added) writeFileSync(file, '');
    try {
      expect(complete(['fz-console', '--ca-file', '']).reply.sort()).toEqual(['*.pem', 'qx', 's1', 's2', 'two words.pem']);
      expect(complete(['fz-console', '--ca-file', 't']).reply).toEqual(['two words.pem']);
    } finally {
      for (const file of added) rmSync(file);
    }
  });
});

/** zsh or fish at a prompt in tmux, in `cwd`, with the completion loaded. */
async function shellAt(shell: 'zsh' | 'fish'): Promise<Terminal> {
  const term = Terminal.start({width: 220, height: 30});
  if (shell === 'zsh') {
    const dot = join(home, 'zdot');
    mkdirSync(dot, {recursive: true});
    writeFileSync(
      join(dot, '.zshrc'),
      `path=(${join(home, 'bin')} $path)\nautoload -Uz compinit; compinit -u -d ${dot}/.zcompdump\nbindkey -e\neval "$(fz-console completion zsh)"\nPS1='ZSH-READY> '\n`,
    );
    term.run(`cd ${cwd} && exec env XDG_CONFIG_HOME=${join(home, 'config')} ZDOTDIR=${dot} zsh -i`);
    await term.waitFor(/^ZSH-READY>/m);
  } else {
    const init = join(home, 'init.fish');
    writeFileSync(
      init,
      `set -gx PATH ${join(home, 'bin')} $PATH\nfz-console completion fish | source\nfunction fish_prompt; echo 'FISH-READY> '; end\nfunction fish_greeting; end\n`,
    );
    // fish keeps its runtime files in XDG_RUNTIME_DIR, else in /tmp/fish.$USER: here, in the test's folder.
    const runtime = join(home, 'run');
    mkdirSync(runtime, {mode: 0o700});
    term.run(`cd ${cwd} && exec env XDG_CONFIG_HOME=${join(home, 'config')} XDG_RUNTIME_DIR=${runtime} fish --no-config -C 'source ${init}'`);
    await term.waitFor(/^FISH-READY>/m);
  }
  return term;
}

for (const shell of ['zsh', 'fish'] as const) {
  describe.skipIf(missing(shell) !== null || !hasTmux())(shell, {timeout: 60_000}, () => {
    let term: Terminal;
    beforeAll(async () => {
      term = await shellAt(shell);
    });
    afterAll(() => term?.kill());

    it('Tab inserts each name as that very name, and nothing runs', async () => {
      const n = names();
      for (const [prefix, name] of [
        ['d', n.dollar],
        ['b', n.backquote],
        ['f', n.fish],
        ['s', n.star],
        ['q', n.semicolon],
      ] as const) {
        term.keys('C-u');
        term.type(`fz-console --profile ${prefix}`);
        term.keys('Tab');
        // The completed word is then the shell's own argument to printf: it prints the name.
        await term.waitFor((s) => s.split('\n').some((l) => l.includes(`--profile ${prefix}`) && l.length > l.indexOf(`--profile ${prefix}`) + 12));
        term.keys('C-a');
        term.type(`printf '<%s>\\n' `);
        term.keys('End', 'Enter');
        await term.waitFor(`<${name}>`);
        term.run('clear');
        await term.waitFor((s) => s.split('\n').filter((l) => l.trim() !== '').length === 1);
      }
      expect(readdirSync(marks)).toEqual([]);
    });
  });
}
