// Entry point: argument parsing, connection resolution, terminal setup and teardown, render().
import React, {useState} from 'react';
import {render} from 'ink';
import {FirezoneClient, type RequestEvent} from './api/index.js';
import {HELP_TEXT, parseCommandLine, UsageError, type ConsoleFlags} from './config/args.js';
import {activityHelp} from './config/cli-spec.js';
import {ConfigError, configPath, readConfigFile, resolveConnection, writeConfigFile, type Connection, type Resolution} from './config/profile.js';
import {PrivateFileError} from './common/private-file.js';
import {DebugLog} from './config/debuglog.js';
import {clientFor} from './config/connection-client.js';
import {isPlainHttpToNetwork} from './config/transport.js';
import type {EarlyStart} from './early.js';
import type {FetchedData} from './state/data/snapshot.js';
import {fetchAll} from './state/data/fetch.js';
import {FIRST_DATA_WAIT_MS, settledWithin} from './common/settled-within.js';
import type {ProfileEntry, ProfileSwitcher} from './state/core/context.js';
import {App, type AppSettings} from './ui/App.js';
import {FirstRun} from './ui/FirstRun.js';
import {FrameWriter, frameWriterStream} from './ui/frame-writer.js';
import {guardedStream, OutputGuard} from './ui/output-guard.js';
import {FRAME_OPTIONS} from './ui/render-options.js';
import {readSize} from './ui/terminal.js';
import {editInTerminal, owned, restoreTerminal, setMouse, suspendToShell, takeTerminal} from './ui/terminal-owner.js';
import {ActivityLog} from './state/tracking/activity-log.js';
import {configureGlyphs} from './state/core/glyphs.js';
// file.js, not the index: the index loads the QR encoder, which the first frame does not need.
import {expandPath} from './wireguard/file.js';
import {configureColor} from './ui/theme.js';
import {hasJobControl} from './config/job-control.js';

const VERSION = process.env.FZ_CONSOLE_VERSION ?? '0.0.0-dev';

interface Session {
  /** Distinct per session: a switch of profile mounts a new console (nothing of the last one goes along). */
  id: number;
  /** The profile it was made from, if any. */
  profile: string | null;
  /** Where its events are appended (`--activity-log`, or the profile's activityLog). */
  activityLog?: ActivityLog | null;
  client: FirezoneClient;
  settings: AppSettings;
  /** Re-reads the token from where it came from (a profile's tokenFile/tokenCommand, FZ_API_TOKEN_FILE). */
  reloadToken?: () => Promise<string | null>;
  close: () => Promise<void>;
  /** The first poll's data, when it was started before the UI loaded. */
  firstData?: Promise<FetchedData>;
  /** The first data had arrived (or failed) when the session was made: the first frame shows it (App's firstDataReady). */
  firstDataReady?: boolean;
}

/** Closes once: a signal handler and the normal teardown may both ask. */
function closeOnce(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => (closing ??= close());
}

async function demoSession(flags: ConsoleFlags, debug: DebugLog | null): Promise<Session> {
  // Imported on demand: the sandbox is only part of a run with --demo.
  const {startSandbox} = await import('./sandbox/index.js');
  const sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 5});
  const client = new FirezoneClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    timeoutMs: (flags.timeout ?? 15) * 1000,
    ...(debug ? {onRequest: (e: RequestEvent) => debug.request(e)} : {}),
  });
  // As for a server (bin.ts): the first frame shows the first poll, not a "loading" screen just before it.
  const firstData = fetchAll(client);
  const firstDataReady = await settledWithin(firstData, FIRST_DATA_WAIT_MS);
  return {
    id: nextSessionId++,
    profile: null,
    client,
    firstData,
    firstDataReady,
    settings: {
      label: `demo sandbox ${sandbox.url}`,
      refreshSeconds: flags.refresh ?? 5,
      readOnly: flags.readOnly,
      insecure: false,
      plainHttp: false,
      demo: true,
      staleDays: flags.staleDays ?? 30,
      activityLogPath: flags.activityLog ?? null,
      mouse: flags.noMouse !== true,
    },
    close: closeOnce(async () => {
      await client.close();
      await sandbox.close();
    }),
  };
}

function connectionSettings(connection: Connection): AppSettings {
  return {
    label: connection.label,
    refreshSeconds: connection.refreshSeconds,
    readOnly: connection.readOnly,
    insecure: connection.insecure,
    plainHttp: isPlainHttpToNetwork(connection.url),
    demo: false,
    staleDays: connection.staleDays,
    activityLogPath: connection.activityLog,
    mouse: connection.mouse,
  };
}

function connectionSession(connection: Connection, debug: DebugLog | null, started?: EarlyStart['started'] | null): Session {
  const base = {id: nextSessionId++, profile: connection.profile};
  if (started) {
    const {client} = started;
    return {
      ...base,
      client,
      firstData: started.firstData,
      firstDataReady: started.firstDataSettled(),
      settings: connectionSettings(connection),
      close: closeOnce(() => client.close()),
    };
  }
  // A bad URL or CA file: a configuration problem, reported in one line.
  const client = clientFor(connection, debug ? (e: RequestEvent) => debug.request(e) : undefined);
  return {...base, client, settings: connectionSettings(connection), close: closeOnce(() => client.close())};
}

let nextSessionId = 1;

/**
 * How `:profile NAME` resolves a profile: as at start, but only from the config file. The URL and
 * token of the start (flags, FZ_URL, FZ_API_TOKEN…) belong to the server the console started on,
 * and so do --insecure and --ca-file; --read-only, the refresh, timeout and stale days carry over.
 */
function resolveProfile(flags: ConsoleFlags, name: string): Promise<Resolution> {
  const env = {...process.env};
  for (const key of ['FZ_URL', 'FZ_API_TOKEN', 'FZ_API_TOKEN_FILE', 'FZ_PROFILE']) delete env[key];
  const own: ConsoleFlags = {...flags, profile: name, insecure: false};
  delete own.url;
  delete own.caFile;
  return resolveConnection(own, env);
}

async function runConsole(flags: ConsoleFlags, early: EarlyStart | null): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(
      `fz-console: not a terminal (${!process.stdin.isTTY ? 'stdin' : 'stdout'} is not a TTY); run it in an interactive terminal, or see fz-console --help\n`,
    );
    return 2;
  }
  // Resolved once: early.ts has done it in a terminal (a tokenCommand must not run twice), and
  // its error, if any, is reported here as if it had happened here.
  let resolution: Resolution | null = null;
  if (!flags.demo) {
    if (early) {
      if (!early.resolution.ok) throw early.resolution.error;
      resolution = early.resolution.value;
    } else {
      resolution = await resolveConnection(flags, process.env);
    }
  }
  configureColor(process.env);
  configureGlyphs(process.env);
  let debug: DebugLog | null = null;
  try {
    if (flags.debug) debug = await DebugLog.open(process.env);
  } catch (err) {
    throw new ConfigError(
      `cannot open the debug log: ${err instanceof PrivateFileError ? err.message : ((err as NodeJS.ErrnoException).code ?? (err as Error).message)}`,
    );
  }
  // Opened before the terminal is taken: an admin who asked for an audit trail gets an error, not a console without one.
  const activityLogPath = flags.activityLog ?? (resolution?.kind === 'connection' ? resolution.connection.activityLog : null);
  let activityLog: ActivityLog | null = null;
  // Every log opened in this run, by path: a profile switched to may share one (closed at exit).
  const openLogs = new Map<string, ActivityLog>();
  if (activityLogPath) {
    try {
      activityLog = ActivityLog.open(expandPath(activityLogPath));
      openLogs.set(expandPath(activityLogPath), activityLog);
    } catch (err) {
      throw new ConfigError(
        err instanceof PrivateFileError
          ? `cannot open the activity log: ${err.message}`
          : `cannot open the activity log ${activityLogPath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }

  let session: Session | null = null;
  let firstRunPath: string | null = null;
  if (flags.demo) {
    session = await demoSession(flags, debug);
  } else if (resolution?.kind === 'connection') {
    session = connectionSession(resolution.connection, debug, early?.started ?? null);
    session.reloadToken = async () => {
      const again = await resolveConnection(flags, process.env);
      return again.kind === 'connection' ? again.connection.token : null;
    };
  } else if (resolution) {
    firstRunPath = resolution.configPath;
  }

  const profiles = firstRunPath ? Object.keys((await readConfigFile(firstRunPath).catch(() => null))?.profiles ?? {}) : [];
  // The first-run screen has nothing to click, and its fields want the terminal's own paste and
  // selection: the mouse is taken when a console is shown.
  takeTerminal(session !== null && session.settings.mouse !== false);
  process.on('exit', restoreTerminal);

  const sessionBox: {current: Session | null} = {current: session};

  /** The log of a profile switched to: the one already open for that path, else opened now (throws why not). */
  const logAt = (path: string): ActivityLog => {
    const full = expandPath(path);
    let log = openLogs.get(full);
    if (!log) {
      log = ActivityLog.open(full);
      openLogs.set(full, log);
    }
    return log;
  };

  // The profiles Tab completes: read when the command bar opens (ProfileSwitcher.list).
  let knownProfiles: ProfileEntry[] = [];
  const profileSwitcher = (active: Session, activate: (next: Session) => void): ProfileSwitcher => ({
    current: active.profile,
    get known() {
      return knownProfiles;
    },
    list: async () => {
      const file = await readConfigFile(configPath(process.env));
      knownProfiles = Object.entries(file?.profiles ?? {}).map(([name, p]) => ({name, url: p.url}));
      return knownProfiles;
    },
    switchTo: async (name, stay) => {
      let candidate: Session;
      let log: ActivityLog | null = null;
      try {
        const resolved = await resolveProfile(flags, name);
        if (resolved.kind !== 'connection') return 'the profile has no server URL';
        log = resolved.connection.activityLog ? logAt(resolved.connection.activityLog) : null;
        candidate = connectionSession(resolved.connection, debug);
      } catch (err) {
        return err instanceof PrivateFileError ? `cannot open the activity log: ${err.message}` : (err as Error).message;
      }
      try {
        await candidate.client.getConfiguration();
      } catch (err) {
        await candidate.close();
        return (err as Error).message;
      }
      const reason = stay?.() ?? null;
      if (reason) {
        await candidate.close();
        return reason;
      }
      candidate.activityLog = log;
      candidate.settings = {...candidate.settings, notice: `Connected with profile ${name} (${candidate.client.baseUrl.href.replace(/\/$/, '')})`};
      candidate.reloadToken = async () => {
        const again = await resolveProfile(flags, name);
        return again.kind === 'connection' ? again.connection.token : null;
      };
      const previous = sessionBox.current;
      sessionBox.current = candidate;
      setMouse(candidate.settings.mouse !== false);
      activate(candidate);
      await previous?.close();
      return null;
    },
  });
  // Ctrl-Z stops the console only where a shell will give the terminal back (src/config/job-control.ts).
  const suspend = hasJobControl() === false ? {} : {suspend: suspendToShell};
  const Root = (): React.JSX.Element => {
    const [active, setActive] = useState<Session | null>(session);
    if (active) {
      const log = active.activityLog !== undefined ? active.activityLog : activityLog;
      return (
        <App
          key={active.id}
          client={active.client}
          settings={active.settings}
          writeRaw={writeRaw}
          {...suspend}
          editText={editInTerminal}
          profiles={profileSwitcher(active, (next) => setActive(next))}
          {...(active.firstData ? {firstData: active.firstData, firstDataReady: active.firstDataReady === true} : {})}
          {...(active.reloadToken ? {reloadToken: active.reloadToken} : {})}
          {...(log ? {activityLog: log} : {})}
        />
      );
    }
    /** Checks the connection, then (unless `before` fails) switches to the console. */
    const open = async (candidate: Session, before?: () => Promise<string | null>): Promise<string | null> => {
      try {
        await candidate.client.getConfiguration();
      } catch (err) {
        await candidate.close();
        return (err as Error).message;
      }
      const failed = before ? await before() : null;
      if (failed) {
        await candidate.close();
        return failed;
      }
      sessionBox.current = candidate;
      setMouse(candidate.settings.mouse !== false);
      setActive(candidate);
      return null;
    };
    return (
      <FirstRun
        configPath={firstRunPath ?? configPath(process.env)}
        profiles={profiles}
        onProfile={async (name) => {
          try {
            const chosen = await resolveConnection({...flags, profile: name}, process.env);
            if (chosen.kind !== 'connection') return `Profile ${name} has no server URL`;
            return await open(connectionSession(chosen.connection, debug));
          } catch (err) {
            return (err as Error).message;
          }
        }}
        onDemo={() => {
          void demoSession(flags, debug).then((s) => {
            sessionBox.current = s;
            setMouse(s.settings.mouse !== false);
            setActive(s);
          });
        }}
        onConnect={async ({url, token, profile}) => {
          const connection: Connection = {
            url,
            token,
            label: profile ?? url,
            profile: profile ?? null,
            refreshSeconds: flags.refresh ?? 5,
            timeoutSeconds: flags.timeout ?? 15,
            caFile: flags.caFile ?? null,
            insecure: flags.insecure,
            readOnly: flags.readOnly,
            activityLog: flags.activityLog ?? null,
            staleDays: flags.staleDays ?? 30,
            mouse: flags.noMouse !== true,
          };
          let candidate: Session;
          try {
            candidate = connectionSession(connection, debug);
          } catch (err) {
            return (err as Error).message;
          }
          return open(candidate, async () => {
            if (!profile) return null;
            try {
              await saveProfile(profile, url, token);
              return null;
            } catch (err) {
              return `Connected, but saving the profile failed: ${(err as Error).message}`;
            }
          });
        }}
      />
    );
  };

  // Ink's frames go through the frame writer, which sends only what changed, then through the
  // output guard, the last step before the terminal; the console's own OSC 52 (copy) goes past both.
  const guard = new OutputGuard((kind) => debug?.line(`output guard dropped ${kind}`));
  const writeRaw = (data: string) => {
    process.stdout.write(data);
  };
  const frames = new FrameWriter(() => readSize(process.stdout));
  owned.frames = frames;
  const instance = render(<Root />, {
    // Made before render(): the writer hears a resize before Ink redraws for it.
    stdout: frameWriterStream(guardedStream(process.stdout, guard), frames, () => owned.taken),
    exitOnCtrlC: true,
    patchConsole: true,
    ...FRAME_OPTIONS,
  });
  let signalCode: number | null = null;
  const onSignal = (signal: NodeJS.Signals, code: number) => {
    if (signalCode !== null) return;
    signalCode = code;
    // From here on the only way out is exit(code), quietly: whatever fails while the UI, the
    // sockets and the demo sandbox go down must not print over the restored terminal, nor
    // change the status the shell sees.
    const quietExit = () => process.exit(code);
    process.on('uncaughtException', quietExit);
    process.on('unhandledRejection', quietExit);
    debug?.line(`exit on ${signal}`);
    try {
      instance.unmount();
    } catch {
      // the UI is going away regardless
    }
    restoreTerminal();
    // Do not hang on a stuck socket after a hangup.
    setTimeout(quietExit, 1000).unref();
    for (const log of openLogs.values()) log.close();
    void Promise.allSettled([sessionBox.current?.close(), debug?.close()]).then(quietExit);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM', 143));
  process.on('SIGHUP', () => onSignal('SIGHUP', 129));
  process.on('SIGINT', () => {
    if (!owned.editorHasTerminal) onSignal('SIGINT', 130);
  });

  try {
    await instance.waitUntilExit();
  } catch (err) {
    if (signalCode === null) throw err;
  } finally {
    restoreTerminal();
    // After a signal the handler above owns the teardown and the exit status.
    if (signalCode === null) {
      await sessionBox.current?.close();
      await debug?.close();
      for (const log of openLogs.values()) log.close();
    }
  }
  return signalCode ?? 0;
}

async function saveProfile(name: string, url: string, token: string): Promise<void> {
  const path = configPath(process.env);
  const {dirname, join} = await import('node:path');
  const {promises: fs} = await import('node:fs');
  const tokenFile = join(dirname(path), `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.token`);
  await fs.mkdir(dirname(path), {recursive: true, mode: 0o700});
  await fs.writeFile(tokenFile, `${token}\n`, {mode: 0o600});
  await fs.chmod(tokenFile, 0o600);
  const existing = (await readConfigFile(path)) ?? {profiles: {}};
  await writeConfigFile(path, {
    ...existing,
    defaultProfile: existing.defaultProfile ?? name,
    profiles: {...existing.profiles, [name]: {url, tokenFile}},
  });
}

/** Runs the console (or prints help/version); resolves to the exit status. */
export async function main(argv: string[], early: EarlyStart | null = null): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    switch (command.kind) {
      case 'help':
        process.stdout.write(HELP_TEXT);
        return 0;
      case 'version':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case 'sandbox': {
        const {runSandboxCli} = await import('./sandbox/index.js');
        await runSandboxCli(command.argv);
        return 0;
      }
      case 'activity': {
        const {runRecorder} = await import('./recorder.js');
        return await runRecorder(command);
      }
      case 'activity-help':
        process.stdout.write(activityHelp());
        return 0;
      case 'server-file':
      case 'server-file-help': {
        const {serverFileMain} = await import('./server-file.js');
        return await serverFileMain(argv);
      }
      case 'completion': {
        const {runCompletion} = await import('./config/completion.js');
        return await runCompletion(command.argv);
      }
      case 'console':
        return await runConsole(command.flags, early);
    }
  } catch (err) {
    restoreTerminal();
    if (err instanceof UsageError) {
      process.stderr.write(`fz-console: ${oneLineMessage(err.message)}\nTry fz-console --help\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      // Found at start, before anything else ran: like a usage error, the admin has to fix how it was started.
      process.stderr.write(`fz-console: ${oneLineMessage(err.message)}\n`);
      return 2;
    }
    process.stderr.write(`fz-console: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

/** Error text for stderr: control characters (from a path, a URL) cannot drive the terminal. */
function oneLineMessage(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ');
}
