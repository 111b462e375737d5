// Resolves the connection once, in a terminal, and sends the first poll's requests before the
// rest of the console (the client with zod, then React and Ink) is loaded, so that the server
// answers and the bodies arrive while the code loads (the "start → first frame" figure of
// README.md, "Performance"; docs/performance.md, "Start-up"). Whatever the resolution gave — a
// connection, first-run, or the error it threw — is handed to main() in cli.tsx, which reports
// it and never resolves again (a profile's tokenCommand runs exactly once). Returns null when
// there is nothing to resolve here (not a terminal, not the console, --demo, a usage error):
// main() then handles it with its proper messages.
//
// Only the first poll's sockets and the argument and profile code may be imported statically here: anything
// else would load before the requests leave.
import type {FirezoneClient} from './api/index.js';
import {FirstPoll} from './api/first-poll.js';
import {parseCommandLine} from './config/args.js';
import {resolveConnection, type Resolution} from './config/profile.js';
import type {FetchedData} from './state/data/snapshot.js';

export type EarlyResolution = {ok: true; value: Resolution} | {ok: false; error: unknown};

export interface EarlyStart {
  argv: readonly string[];
  resolution: EarlyResolution;
  /** The client and its first fetch, when a connection resolved and no --debug log has to watch the requests. */
  started?: {client: FirezoneClient; firstData: Promise<FetchedData>; firstDataSettled: () => boolean};
}

export async function startEarly(argv: string[]): Promise<EarlyStart | null> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return null;
  let command;
  try {
    command = parseCommandLine(argv);
  } catch {
    return null;
  }
  if (command.kind !== 'console' || command.flags.demo) return null;
  let resolution: EarlyResolution;
  try {
    resolution = {ok: true, value: await resolveConnection(command.flags, process.env)};
  } catch (error) {
    return {argv, resolution: {ok: false, error}};
  }
  if (resolution.value.kind !== 'connection' || command.flags.debug) return {argv, resolution};
  const c = resolution.value.connection;
  const options = {baseUrl: c.url, token: c.token, insecure: c.insecure, ...(c.caFile ? {caFile: c.caFile} : {})};
  let firstPoll: FirstPoll | null;
  try {
    firstPoll = FirstPoll.start(options);
  } catch {
    // main() builds the client and reports why it cannot (a bad URL, an unreadable CA file) in its own words.
    return {argv, resolution};
  }
  const [{FirezoneClient: Client}, {fetchAll}] = await Promise.all([import('./api/index.js'), import('./state/data/fetch.js')]);
  let client: FirezoneClient;
  try {
    client = new Client({...options, timeoutMs: c.timeoutSeconds * 1000, ...(firstPoll ? {firstPoll} : {})});
  } catch {
    firstPoll?.close();
    return {argv, resolution};
  }
  const firstData = fetchAll(client);
  // The poller awaits it and reports a failure; until then it must not count as unhandled.
  let settled = false;
  firstData.then(
    () => (settled = true),
    () => (settled = true),
  );
  return {argv, resolution, started: {client, firstData, firstDataSettled: () => settled}};
}
