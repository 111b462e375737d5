// man/fz-console.1, made from the same tables as `--help` (cli-spec.ts), the keys (help-sections.ts
// helpSections, with the line editor's keys and the command bar's commands) and the sandbox's
// options. test/config/manpage.test.ts fails when the file is not what
// this makes (`npm run man` is that test with UPDATE_MAN=1). roff: every line of text goes through `esc`, so a help text cannot start a request
// (a leading `.` or `'`) or an escape (`\`).
import {helpSections} from '../state/input/help-sections.js';
import {
  ACTIVITY_EXIT_STATUS,
  ACTIVITY_OPTIONS,
  CONSOLE_OPTIONS,
  ENVIRONMENT,
  EXIT_STATUS,
  optionLabel,
  PRECEDENCE,
  SANDBOX_OPTIONS,
  SERVER_FILE_EXIT_STATUS,
  SERVER_FILE_OPTIONS,
  SUBCOMMANDS,
  SUMMARY,
} from './cli-spec.js';

/** Text for a roff line: backslashes doubled, hyphens kept as hyphens, a leading dot or quote made inert. */
export function esc(text: string): string {
  const escaped = text.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}

const bold = (text: string) => `\\fB${esc(text)}\\fR`;

function tagged(tag: string, body: string): string[] {
  return ['.TP', tag, esc(body)];
}

export function manPage(version: string): string {
  const out: string[] = [];
  // No date: the page changes with what it says, not with the day it was made.
  out.push(`.TH FZ-CONSOLE 1 "" "fz-console ${esc(version)}" "User Commands"`);
  out.push('.SH NAME');
  out.push(`fz-console \\- ${esc(SUMMARY)}`);
  out.push('.SH SYNOPSIS');
  out.push(`${bold('fz-console')} [\\fIoptions\\fR]`);
  out.push('.br');
  out.push(`${bold('fz-console --demo')}`);
  for (const s of SUBCOMMANDS) {
    out.push('.br');
    out.push(`${bold(`fz-console ${s.name}`)} ${esc(s.args)}`);
  }
  out.push('.SH DESCRIPTION');
  out.push(
    esc(
      'A terminal console for administrators of Firezone 0.7 WireGuard VPN servers, driven through the admin REST API (/v0): devices, users, firewall rules and the configuration, live, from the keyboard. The README has the whole story; this page lists the command line, the keys and the commands.',
    ),
  );
  out.push('.SH OPTIONS');
  for (const o of CONSOLE_OPTIONS) out.push(...tagged(bold(optionLabel(o)), o.help));
  out.push('.SH COMMANDS');
  for (const s of SUBCOMMANDS) out.push(...tagged(`${bold(s.name)} ${esc(s.args)}`, s.help));
  out.push('.SS Activity options');
  out.push(esc('Besides these, activity takes the connection options --url, --profile, --timeout, --ca-file and --insecure, and the same environment.'));
  for (const o of ACTIVITY_OPTIONS) out.push(...tagged(bold(optionLabel(o)), o.help));
  out.push('.SS Export, plan and apply options');
  out.push(
    esc(
      'Besides these, they take the connection options --url, --profile, --timeout, --ca-file, --insecure and --read-only (which apply refuses), and the same environment.',
    ),
  );
  for (const o of SERVER_FILE_OPTIONS) out.push(...tagged(bold(optionLabel(o)), o.help));
  out.push('.SS Sandbox options');
  for (const o of SANDBOX_OPTIONS) out.push(...tagged(bold(`${o.flag}${o.arg ? ` ${o.arg}` : ''}`), o.help));
  out.push('.SH KEYS');
  out.push(
    esc(
      'Keys are resolved where you are first (a form, a dialog, the filter, the list or a detail), then everywhere. ? opens this list on the keys of where you are.',
    ),
  );
  for (const section of helpSections()) {
    if (section.rows.length === 0) continue;
    out.push(`.SS ${esc(section.title)}`);
    for (const row of section.rows) out.push(...tagged(bold(row.keys), row.help));
  }
  out.push('.SH ENVIRONMENT');
  for (const e of ENVIRONMENT) out.push(...tagged(bold(e.name), e.help));
  out.push(esc(PRECEDENCE.join(' ')));
  out.push('.SH FILES');
  out.push(
    ...tagged(
      '\\fI$XDG_CONFIG_HOME/fz\\-console/config.json\\fR',
      'profiles (default ~/.config/fz-console/config.json); must be private (mode 0600), as the token files it names',
    ),
  );
  out.push(...tagged('\\fI$XDG_STATE_HOME/fz\\-console/debug.log\\fR', 'the --debug request log, without secrets'));
  out.push(
    ...tagged(
      '\\fI$XDG_STATE_HOME/fz\\-console/backups/\\fR',
      'what apply deleted or replaced, with its secrets (0600 files in a 0700 folder): apply one to bring it back',
    ),
  );
  out.push('.SH EXIT STATUS');
  out.push(esc(EXIT_STATUS.join(' ')));
  out.push('.br');
  out.push(esc(`fz-console activity: ${ACTIVITY_EXIT_STATUS.join(' ').replace(/^Exit status: /, '')}`));
  out.push('.br');
  out.push(esc(`fz-console export, plan, apply: ${SERVER_FILE_EXIT_STATUS.join(' ').replace(/^Exit status: /, '')}`));
  out.push('.SH SEE ALSO');
  out.push(`${bold('wg')}(8), ${bold('nft')}(8)`);
  return `${out.join('\n')}\n`;
}
