// Raw HTTP against a running sandbox: status, headers and body exactly as sent (no client library
// in between, so empty bodies, content types and header quirks stay visible).
import {request as httpRequest} from 'node:http';
import {generateKeyPairSync} from 'node:crypto';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export interface RawRequest {
  token?: string | null;
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export function send(baseUrl: string, method: string, path: string, options: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = {accept: 'application/json'};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers ?? {});
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {method, headers}, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = undefined;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({status: res.statusCode ?? 0, headers: res.headers, text, json});
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A real X25519 public key, base64 (44 characters). */
export function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

/** Data of a `{"data": …}` response. */
export function data<T = Record<string, unknown>>(res: RawResponse): T {
  return (res.json as {data: T}).data;
}
