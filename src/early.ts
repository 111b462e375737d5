// Starts the first fetch while the UI code (React, Ink: the largest chunk) is still loading,
// so the network and JSON parsing overlap module loading (design §7, start → first frame).
// Anything unusual (errors, --demo, --debug, not a terminal) returns null and the normal
// path in cli.tsx handles it, with its proper messages.
import {FirezoneClient} from './api/index.js';
import {parseCommandLine} from './config/args.js';
import {resolveConnection, type Connection} from './config/profile.js';
import {fetchAll} from './state/fetch.js';
import type {FetchedData} from './state/resources.js';

export interface EarlyStart {
  argv: readonly string[];
  connection: Connection;
  client: FirezoneClient;
  firstData: Promise<FetchedData>;
}

export async function startEarly(argv: string[]): Promise<EarlyStart | null> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return null;
  try {
    const command = parseCommandLine(argv);
    if (command.kind !== 'console' || command.flags.demo || command.flags.debug) return null;
    const resolution = await resolveConnection(command.flags, process.env);
    if (resolution.kind !== 'connection') return null;
    const c = resolution.connection;
    const client = new FirezoneClient({baseUrl: c.url, token: c.token, timeoutMs: c.timeoutSeconds * 1000, insecure: c.insecure,
      ...(c.caFile ? {caFile: c.caFile} : {})});
    const firstData = fetchAll(client);
    // The poller awaits it and reports a failure; until then it must not count as unhandled.
    firstData.catch(() => undefined);
    return {argv, connection: c, client, firstData};
  } catch {
    return null;
  }
}
