// `fz-console activity --follow --log FILE`: the headless audit recorder (README, "The headless
// audit recorder"). No terminal, no React: the connection is resolved as the console resolves it
// (flags, environment, profile; token file or command; TLS options), the recorder
// (src/state/tracking/recorder.ts) polls with the console's back-off, and every batch of events
// goes to the same JSON Lines log as `--activity-log` (0600, never through a symbolic link,
// written and flushed per batch, whole or not at all). Its own state goes to stderr, one line
// each, stamped. SIGTERM, SIGINT and SIGHUP stop it after the batch being written: exit 143, 130,
// 129. It exits 1 when a batch cannot be written, and when no token has been accepted for
// --token-grace seconds after a 401 (the token is read again, as at start, before each retry).
import type {FirezoneClient} from './api/index.js';
import {clientFor} from './config/connection-client.js';
import {PrivateFileError} from './common/private-file.js';
import {parseCommandLine, UsageError, type Command} from './config/args.js';
import {activityHelp, ACTIVITY_TOKEN_GRACE_S} from './config/cli-spec.js';
import {ConfigError, resolveConnection} from './config/profile.js';
import {ActivityLog} from './state/tracking/activity-log.js';
import {ActivityRecorder} from './state/tracking/recorder.js';
import {expandPath} from './wireguard/file.js';

/** Without --interval, and where the profile's refresh is manual (0): once every this many seconds. */
const DEFAULT_INTERVAL_S = 30;

function say(line: string): void {
  // Control characters from a server's error message cannot drive whatever reads the log.
  // eslint-disable-next-line no-control-regex
  process.stderr.write(`${new Date().toISOString()} fz-console activity: ${line.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ')}\n`);
}

export async function runRecorder(command: Extract<Command, {kind: 'activity'}>): Promise<number> {
  const {flags, log: logPath, intervalSeconds} = command;
  const resolution = await resolveConnection(flags, process.env);
  if (resolution.kind !== 'connection') {
    throw new ConfigError('activity: no server to record: give --url or FZ_URL with FZ_API_TOKEN/FZ_API_TOKEN_FILE, or --profile NAME');
  }
  const connection = resolution.connection;
  let log: ActivityLog;
  try {
    log = ActivityLog.open(expandPath(logPath));
  } catch (err) {
    throw new ConfigError(
      err instanceof PrivateFileError
        ? `cannot open the activity log: ${err.message}`
        : `cannot open the activity log ${logPath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let client: FirezoneClient;
  try {
    client = clientFor(connection);
  } catch (err) {
    log.close();
    throw err;
  }
  const interval = intervalSeconds ?? (connection.refreshSeconds > 0 ? connection.refreshSeconds : DEFAULT_INTERVAL_S);
  say(`recording ${connection.label} every ${interval} s to ${log.path}${connection.insecure ? ' (TLS not verified: --insecure)' : ''}`);
  // A half line left by a write cut short (an older version on a full disk, a crash) was ended when the log was opened.
  const mended = log.takeStartNote();
  if (mended) say(mended);
  return new Promise<number>((resolve) => {
    // The poller's timers do not hold the process (in the console, the terminal does): this does,
    // until a signal or a failed write ends the recording.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    let done = false;
    const finish = (code: number, why: string) => {
      if (done) return;
      done = true;
      clearInterval(keepAlive);
      recorder.stop();
      log.close();
      say(`${why}; ${recorder.eventsRecorded} event${recorder.eventsRecorded === 1 ? '' : 's'} recorded; exit ${code}`);
      void client.close().finally(() => resolve(code));
    };
    const recorder = new ActivityRecorder({
      client,
      intervalMs: interval * 1000,
      append: (events) => log.append(events),
      say,
      failed: (why) => finish(1, why),
      token: {
        current: connection.token,
        // Resolved again as at start (src/config/profile.ts): the token file read, the tokenCommand run.
        reload: async () => {
          const again = await resolveConnection(flags, process.env);
          if (again.kind !== 'connection') throw new ConfigError('the configuration names no server any more');
          return again.connection.token;
        },
        use: (token) => client.setToken(token),
        graceMs: (command.tokenGraceSeconds ?? ACTIVITY_TOKEN_GRACE_S) * 1000,
      },
    });
    process.on('SIGTERM', () => finish(143, 'stopped by SIGTERM'));
    process.on('SIGINT', () => finish(130, 'stopped by SIGINT'));
    process.on('SIGHUP', () => finish(129, 'stopped by SIGHUP'));
    recorder.start();
  });
}

/** The executable's `activity …`: usage and configuration errors exit 2 in one line, as the console's do. */
export async function recorderMain(argv: string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    if (command.kind === 'activity-help') {
      process.stdout.write(activityHelp());
      return 0;
    }
    if (command.kind !== 'activity') throw new UsageError('expected fz-console activity --follow --log FILE');
    return await runRecorder(command);
  } catch (err) {
    // eslint-disable-next-line no-control-regex
    const line = (err instanceof Error ? err.message : String(err)).replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ');
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`fz-console: ${line}\n`);
      return 2;
    }
    process.stderr.write(`fz-console: ${err instanceof Error ? (err.stack ?? line) : line}\n`);
    return 1;
  }
}
