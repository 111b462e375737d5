// The API client for a resolved connection (flags, environment, profile), as the console and the
// headless recorder both make it: the URL, token, timeout and TLS options, and a bad URL or CA
// file reported as the configuration error it is.
import {FirezoneClient, type RequestEvent} from '../api/index.js';
import {ConfigError, type Connection} from './profile.js';

export function clientFor(connection: Connection, onRequest?: (e: RequestEvent) => void): FirezoneClient {
  try {
    return new FirezoneClient({
      baseUrl: connection.url,
      token: connection.token,
      timeoutMs: connection.timeoutSeconds * 1000,
      insecure: connection.insecure,
      ...(connection.caFile ? {caFile: connection.caFile} : {}),
      ...(onRequest ? {onRequest} : {}),
    });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
