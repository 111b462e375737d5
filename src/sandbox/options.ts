// The sandbox's command-line options as data: `fz-console sandbox --help`, the man page and the
// shell completion are made from this one table (src/config/cli-spec.ts). No imports: the
// console's start-up path reads it without loading the sandbox.

export interface SandboxOption {
  flag: string;
  /** The value's name in the help (`N`, `CIDR`), or '' for a flag without one. */
  arg: string;
  help: string;
  /** The values it takes, where they are few (completion offers them). */
  values?: readonly string[];
}

export const SANDBOX_OPTIONS: readonly SandboxOption[] = [
  {flag: '--host', arg: 'HOST', help: 'listen address (default 127.0.0.1)'},
  {flag: '--port', arg: 'N', help: 'listen port; 0 picks a free one (default 13000)'},
  {flag: '--seed', arg: 'demo|empty', help: 'demo company data, or only the two sandbox users (default demo)', values: ['demo', 'empty']},
  {flag: '--devices', arg: 'N', help: 'demo devices (default 90)'},
  {flag: '--users', arg: 'N', help: 'demo users, including admin@ and user@sandbox.test (default 40)'},
  {flag: '--rules', arg: 'N', help: 'demo firewall rules (default 25)'},
  {flag: '--random-seed', arg: 'N', help: 'seed for the generated data and simulation (default 1)'},
  {flag: '--ipv4-network', arg: 'CIDR', help: 'WIREGUARD_IPV4_NETWORK (default 10.3.2.0/24, gateway .1)'},
  {flag: '--ipv6-network', arg: 'CIDR', help: 'WIREGUARD_IPV6_NETWORK (default fd00::3:2:0/120)'},
  {flag: '--max-devices-per-user', arg: 'N', help: 'MAX_DEVICES_PER_USER, 0..100 (default 10)'},
  {flag: '--stats-interval', arg: 'SECONDS', help: 'stats simulation period; 0 turns it off (default 60)'},
  {
    flag: '--env',
    arg: 'KEY=VALUE',
    help: 'simulated server environment variable (repeatable), e.g. LOCAL_AUTH_ENABLED=true, DEFAULT_CLIENT_MTU=1400',
  },
  {flag: '--latency-ms', arg: 'N', help: 'delay added to every /v0 response (default 0)'},
  {flag: '--help', arg: '', help: 'show this help'},
];

/** `fz-console sandbox --help`. */
export function sandboxHelp(): string {
  const lines = [
    'Usage: fz-console sandbox [options]',
    '',
    'Runs a Firezone 0.7.36-compatible /v0 API server with an in-memory database.',
    'Once listening it prints FZ_URL, FZ_API_TOKEN and FZ_UNPRIVILEGED_TOKEN to stdout;',
    'logs go to stderr. Stop it with Ctrl-C (SIGINT) or SIGTERM.',
    '',
    'Options:',
  ];
  for (const o of SANDBOX_OPTIONS) {
    const [first, ...rest] = wrap(o.help, 96 - 31);
    lines.push(`  ${`${o.flag}${o.arg ? ` ${o.arg}` : ''}`.padEnd(29)}${first}`);
    for (const more of rest) lines.push(`${' '.repeat(31)}${more}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Words into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  out.push(line);
  return out;
}
