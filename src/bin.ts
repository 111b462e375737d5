// The executable's entry. It answers --version and --help, and starts the sandbox, without
// loading React, Ink or the API client: each part is a separate chunk loaded on demand.
import {HELP_TEXT} from './config/args.js';

const argv = process.argv.slice(2);
const first = argv[0];

async function run(): Promise<number> {
  if (argv.length === 1 && (first === '--version' || first === '-V')) {
    process.stdout.write(`${process.env.FZ_CONSOLE_VERSION ?? '0.0.0-dev'}\n`);
    return 0;
  }
  if (argv.length === 1 && (first === '--help' || first === '-h')) {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  if (first === 'sandbox') {
    const {runSandboxCli} = await import('./sandbox/index.js');
    await runSandboxCli(argv.slice(1));
    return 0;
  }
  const {startEarly} = await import('./early.js');
  const early = await startEarly(argv);
  const {main} = await import('./cli.js');
  const code = await main(argv, early);
  // The console owns the process: once its UI has gone, nothing else may keep it alive.
  process.exit(code);
}

run().then((code) => {
  process.exitCode = code;
}, (err: unknown) => {
  process.stderr.write(`fz-console: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
