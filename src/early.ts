// Resolves the connection once, in a terminal, and starts the first fetch while the UI code
// (React, Ink: the largest chunk) is still loading, so the network and JSON parsing overlap
// module loading (the "start → first frame" figure of README.md, "Performance"). Whatever
// the resolution gave — a
// connection, first-run, or the error it threw — is handed to main() in cli.tsx, which reports
// it and never resolves again (a profile's tokenCommand runs exactly once). Returns null when
// there is nothing to resolve here (not a terminal, not the console, --demo, a usage error):
// main() then handles it with its proper messages.
import {FirezoneClient} from './api/index.js';
import {parseCommandLine} from './config/args.js';
import {resolveConnection, type Resolution} from './config/profile.js';
import {fetchAll} from './state/fetch.js';
import type {FetchedData} from './state/resources.js';

export type EarlyResolution = {ok: true; value: Resolution} | {ok: false; error: unknown};

export interface EarlyStart {
  argv: readonly string[];
  resolution: EarlyResolution;
  /** The client and its first fetch, when a connection resolved and no --debug log has to watch the requests. */
  started?: {client: FirezoneClient; firstData: Promise<FetchedData>};
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
  let client: FirezoneClient;
  try {
    client = new FirezoneClient({
      baseUrl: c.url,
      token: c.token,
      timeoutMs: c.timeoutSeconds * 1000,
      insecure: c.insecure,
      ...(c.caFile ? {caFile: c.caFile} : {}),
    });
  } catch {
    // main() builds the client again and reports why it cannot (a bad URL) in its own words.
    return {argv, resolution};
  }
  const firstData = fetchAll(client);
  // The poller awaits it and reports a failure; until then it must not count as unhandled.
  firstData.catch(() => undefined);
  return {argv, resolution, started: {client, firstData}};
}
