// The server as a file (docs/server-as-a-file.md, "The document"): its schema, reading it with
// every error placed on a line of the file, and writing it byte-stable. YAML and JSON are read by
// the same parser (JSON is YAML 1.2); the file is bounded, and read without following a link.
import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs';
import {LineCounter, parseDocument, stringify, isMap, isSeq, type Node} from 'yaml';
import {z} from 'zod';

export const DOCUMENT_VERSION = 1;
/** A whole server of tens of thousands of devices fits in a few MiB; more is not a file to review. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

const str = z.string().max(4096);
const ipList = z.array(str).max(1000);

const UserDoc = z.object({email: str, role: z.enum(['admin', 'unprivileged'])}).strict();

/**
 * A device's five settings: absent means "uses the server's default" (use_default_X: true); present,
 * null included, is the device's own value.
 */
const DeviceDoc = z
  .object({
    owner: str,
    name: str,
    description: str.nullable().optional(),
    public_key: str,
    preshared_key: str.optional(),
    ipv4: str.nullable().optional(),
    ipv6: str.nullable().optional(),
    allowed_ips: ipList.nullable().optional(),
    dns: ipList.nullable().optional(),
    endpoint: str.nullable().optional(),
    mtu: z.number().int().nullable().optional(),
    persistent_keepalive: z.number().int().nullable().optional(),
  })
  .strict();

const RuleDoc = z
  .object({
    action: z.enum(['accept', 'drop']),
    destination: str,
    port_type: z.enum(['tcp', 'udp']).nullable().optional(),
    port_range: str.nullable().optional(),
    /** The user's email; absent or null is a global rule. */
    user: str.nullable().optional(),
  })
  .strict();

const OidcDoc = z
  .object({
    id: str,
    label: str,
    scope: str,
    response_type: str,
    client_id: str,
    /** Absent: the server's secret for this provider id is kept (an export without --with-secrets). */
    client_secret: str.optional(),
    discovery_document_uri: str,
    redirect_uri: str.nullable().optional(),
    auto_create_users: z.boolean(),
  })
  .strict();

const SamlDoc = z
  .object({
    id: str,
    label: str,
    base_url: str.nullable().optional(),
    metadata: z.string().max(1024 * 1024),
    sign_requests: z.boolean(),
    sign_metadata: z.boolean(),
    signed_assertion_in_resp: z.boolean(),
    signed_envelopes_in_resp: z.boolean(),
    auto_create_users: z.boolean(),
  })
  .strict();

/** The configuration's editable fields (raw values, so nullable as 0.7.36 stores them); absent is not managed. */
const ConfigurationDoc = z
  .object({
    allow_unprivileged_device_configuration: z.boolean().nullable().optional(),
    allow_unprivileged_device_management: z.boolean().nullable().optional(),
    default_client_allowed_ips: ipList.nullable().optional(),
    default_client_dns: ipList.nullable().optional(),
    default_client_endpoint: str.nullable().optional(),
    default_client_mtu: z.number().int().nullable().optional(),
    default_client_persistent_keepalive: z.number().int().nullable().optional(),
    disable_vpn_on_oidc_error: z.boolean().nullable().optional(),
    local_auth_enabled: z.boolean().nullable().optional(),
    vpn_session_duration: z.number().int().optional(),
    openid_connect_providers: z.array(OidcDoc).max(100).optional(),
    saml_identity_providers: z.array(SamlDoc).max(100).optional(),
  })
  .strict();

export const ServerDocument = z
  .object({
    version: z.literal(DOCUMENT_VERSION),
    users: z.array(UserDoc).max(100_000).default([]),
    devices: z.array(DeviceDoc).max(200_000).default([]),
    rules: z.array(RuleDoc).max(100_000).default([]),
    configuration: ConfigurationDoc.optional(),
  })
  .strict();

export type ServerDocument = z.infer<typeof ServerDocument>;
export type UserDoc = z.infer<typeof UserDoc>;
export type DeviceDoc = z.infer<typeof DeviceDoc>;
export type RuleDoc = z.infer<typeof RuleDoc>;
export type ConfigurationDoc = z.infer<typeof ConfigurationDoc>;
export type OidcDoc = z.infer<typeof OidcDoc>;
export type SamlDoc = z.infer<typeof SamlDoc>;

/** A problem in the file, where it is: `line` 0 when the whole file is meant. */
export interface FileProblem {
  line: number;
  message: string;
}

export class DocumentError extends Error {
  override readonly name = 'DocumentError';
  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
  ) {
    super(problems.map((p) => `${file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}`).join('\n'));
  }
}

/** Where each entry of the document is: `lineOf(['devices', 3])`, the line of that entry's start (or of the nearest ancestor). */
export type LineOf = (path: ReadonlyArray<string | number>) => number;

export interface ReadDocument {
  document: ServerDocument;
  lineOf: LineOf;
}

const pathText = (path: ReadonlyArray<PropertyKey>) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');

/** Parses `text` (YAML or JSON) into a checked document; throws a DocumentError listing every problem with its line. */
export function parseServerDocument(text: string, file: string): ReadDocument {
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) throw new DocumentError(file, [{line: 0, message: `larger than ${MAX_DOCUMENT_BYTES} bytes`}]);
  const lines = new LineCounter();
  // uniqueKeys: a key given twice is an error, not "the last one wins" unseen.
  const doc = parseDocument(text, {lineCounter: lines, uniqueKeys: true, prettyErrors: false, version: '1.2'});
  const lineAt = (offset: number) => lines.linePos(offset).line;
  if (doc.errors.length > 0) {
    throw new DocumentError(
      file,
      doc.errors.map((e) => ({line: lineAt(e.pos[0]), message: e.message.split('\n')[0]!})),
    );
  }
  const lineOf: LineOf = (path) => {
    let node: unknown = doc.contents;
    let line = node && (node as Node).range ? lineAt((node as Node).range![0]) : 1;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (p.key as {value?: unknown} | null)?.value === key);
        if (!pair) break;
        const keyNode = pair.key as Node | null;
        if (keyNode?.range) line = lineAt(keyNode.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number') {
        node = node.items[key];
        if (!node) break;
        if ((node as Node).range) line = lineAt((node as Node).range![0]);
      } else break;
    }
    return line;
  };
  let raw: unknown;
  try {
    // Aliases are bounded: a billion-laughs file is refused, not expanded.
    raw = doc.toJS({maxAliasCount: 100});
  } catch (err) {
    throw new DocumentError(file, [{line: 0, message: (err as Error).message}]);
  }
  const parsed = ServerDocument.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new DocumentError(
      file,
      parsed.error.issues.slice(0, 50).map((issue) => {
        // An unknown key is placed on its own line, not its object's.
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const at = keys.length > 0 ? [...issue.path, keys[0]!] : issue.path;
        const where = pathText(at as PropertyKey[]);
        return {line: lineOf(at as Array<string | number>), message: `${where ? `${where}: ` : ''}${issue.message}`};
      }),
    );
  }
  return {document: parsed.data, lineOf};
}

/** Reads a document file: never through a symbolic link, a regular file of at most MAX_DOCUMENT_BYTES. */
export function readDocumentFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new DocumentError(path, [{line: 0, message: 'is a symbolic link: name the file itself'}]);
    throw new DocumentError(path, [{line: 0, message: `cannot be read (${code ?? (err as Error).message})`}]);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new DocumentError(path, [{line: 0, message: 'is not a regular file'}]);
    if (stat.size > MAX_DOCUMENT_BYTES) throw new DocumentError(path, [{line: 0, message: `is larger than ${MAX_DOCUMENT_BYTES} bytes`}]);
    const buffer = Buffer.alloc(Math.min(stat.size + 1, MAX_DOCUMENT_BYTES + 1));
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_DOCUMENT_BYTES) throw new DocumentError(path, [{line: 0, message: `is larger than ${MAX_DOCUMENT_BYTES} bytes`}]);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export type DocumentFormat = 'yaml' | 'json';

/** The format a path asks for: `.json` is JSON, anything else YAML. */
export function formatForPath(path: string): DocumentFormat {
  return /\.json$/i.test(path) ? 'json' : 'yaml';
}

const YAML_HEADER =
  '# fz-console export: the server as a file (README, "Keeping the server in a file").\n' +
  '# Review it with `fz-console plan FILE`, change the server with `fz-console apply FILE`.\n';

/** The document as text: keys in the order they were built, so the same document gives the same bytes. */
export function serialiseDocument(document: ServerDocument, format: DocumentFormat): string {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  // lineWidth 0: no folding, so a long value is one line and a diff shows it whole.
  return YAML_HEADER + stringify(document, {lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false});
}
