// The configuration embeds of 0.7.36: OpenID Connect providers, SAML identity providers and the logo
// (docs/firezone-0.7.36.md, "Configuration and providers (wholesale replacement)"), including the two checks the
// sandbox cannot copy (src/sandbox/README.md, "Deviations from 0.7.36"): the OIDC
// discovery document is checked for an http(s) URL shape instead of being fetched, and SAML metadata
// must be XML whose root is an EntityDescriptor with an IDPSSODescriptor child.

import {Changeset, castBoolean, castString} from './changeset.js';
import {isParamsMap, type Params} from './json.js';
import type {Logo, OidcProvider, SamlProvider} from './store.js';
import {parseUri} from '../common/uri.js';
import {uriErrors} from './validators.js';

const RESERVED_IDS = ['identity', 'saml', 'magic_link'];

const OIDC_DEFAULTS: OidcProvider = {
  id: null,
  label: null,
  scope: 'openid email profile',
  response_type: 'code',
  client_id: null,
  client_secret: null,
  discovery_document_uri: null,
  redirect_uri: null,
  auto_create_users: null,
};

const SAML_DEFAULTS: SamlProvider = {
  id: null,
  label: null,
  base_url: null,
  metadata: null,
  sign_requests: true,
  sign_metadata: true,
  signed_assertion_in_resp: true,
  signed_envelopes_in_resp: true,
  auto_create_users: null,
};

type EmbedResult<T> = {ok: true; value: T} | {ok: false; errors: Record<string, unknown>};

function finish<T>(cs: Changeset, defaults: T): EmbedResult<T> {
  if (!cs.valid) return {ok: false, errors: cs.errorsJson()};
  const value = {...defaults} as Record<string, unknown>;
  for (const key of Object.keys(value)) value[key] = cs.get(key);
  return {ok: true, value: value as T};
}

/** OpenIDConnectProvider.changeset/2 on a fresh struct. */
export function oidcChangeset(params: Params): EmbedResult<OidcProvider> {
  const cs = new Changeset(OIDC_DEFAULTS as unknown as Record<string, unknown>, params);
  for (const field of ['id', 'label', 'scope', 'response_type', 'client_id', 'client_secret', 'discovery_document_uri']) {
    cs.cast(field, castString, (OIDC_DEFAULTS as unknown as Record<string, unknown>)[field]);
  }
  cs.cast('auto_create_users', castBoolean);
  cs.cast('redirect_uri', castString);
  cs.validateRequired(['id', 'label', 'scope', 'response_type', 'client_id', 'client_secret', 'discovery_document_uri', 'auto_create_users']);
  cs.validateExclusion('id', RESERVED_IDS);
  cs.validateChange('discovery_document_uri', (value) => discoveryUriErrors(value as string));
  cs.validateChange('redirect_uri', (value) => uriErrors(value as string));
  cs.validateInclusion('response_type', ['code']);
  cs.validateFormat('scope', /openid/, 'must include openid scope');
  cs.validateFormat('scope', /email/, 'must include email scope');
  return finish(cs, OIDC_DEFAULTS);
}

/**
 * Sandbox stand-in for fetching the discovery document (0.7.36 fetches it during validation and
 * reports `is invalid. Reason: <inspect(reason)>`): an http(s) URL with a host passes.
 */
function discoveryUriErrors(value: string): string[] {
  const parsed = parseUri(value);
  if ('ok' in parsed && (parsed.ok.scheme === 'http' || parsed.ok.scheme === 'https') && parsed.ok.host) return [];
  return ['is invalid. Reason: :invalid_uri'];
}

/** SAMLIdentityProvider.changeset/2 on a fresh struct; `defaultBaseUrl` is `<EXTERNAL_URL>/auth/saml`. */
export function samlChangeset(params: Params, defaultBaseUrl: string): EmbedResult<SamlProvider> {
  const cs = new Changeset(SAML_DEFAULTS as unknown as Record<string, unknown>, params);
  for (const field of ['id', 'label', 'base_url', 'metadata']) cs.cast(field, castString);
  for (const field of ['sign_requests', 'sign_metadata', 'signed_assertion_in_resp', 'signed_envelopes_in_resp']) cs.cast(field, castBoolean, true);
  cs.cast('auto_create_users', castBoolean);
  const baseUrl = cs.hasChange('base_url') ? cs.change('base_url') : defaultBaseUrl;
  cs.put('base_url', baseUrl);
  cs.validateRequired(['id', 'label', 'metadata', 'auto_create_users']);
  cs.validateChange('base_url', (value) => uriErrors(value as string));
  cs.validateChange('metadata', (value) => {
    const problem = samlMetadataProblem(value as string);
    return problem === null ? [] : [`is invalid. Details: ${problem}.`];
  });
  cs.validateExclusion('id', RESERVED_IDS);
  return finish(cs, SAML_DEFAULTS);
}

/** FzHttp.Config.Logo.changeset/2: a `file` must exist on the server, which in the sandbox it never does. */
export function logoChangeset(params: Params): EmbedResult<Logo> {
  const cs = new Changeset({url: null, data: null, file: null, type: null}, params);
  for (const field of ['url', 'data', 'file', 'type']) cs.cast(field, castString);
  cs.validateChange('file', () => ['file does not exist']);
  if (!cs.valid) return {ok: false, errors: cs.errorsJson()};
  return {ok: true, value: {url: cs.get('url') as string | null, data: cs.get('data') as string | null, type: cs.get('type') as string | null}};
}

/**
 * Ecto cast_embed for an embeds_many: a list (or an index-keyed map, as form encoding produces) of
 * maps. Returns the new list, `invalid` for a wrong shape, or the list-aligned errors.
 */
export function castEmbedList<T>(
  value: unknown,
  element: (params: Params) => EmbedResult<T>,
): {kind: 'ok'; value: T[]} | {kind: 'invalid'} | {kind: 'errors'; errors: Array<Record<string, unknown>>} {
  let items: unknown[];
  if (Array.isArray(value)) {
    items = value;
  } else if (isParamsMap(value)) {
    const keyed = Object.entries(value).map(([k, v]) => ({key: /^\d+$/.test(k) ? Number(k) : k, v}));
    keyed.sort((a, b) => {
      if (typeof a.key === 'number' && typeof b.key === 'number') return a.key - b.key;
      if (typeof a.key === 'number') return -1;
      if (typeof b.key === 'number') return 1;
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    });
    items = keyed.map((e) => e.v);
  } else {
    return {kind: 'invalid'};
  }
  if (!items.every(isParamsMap)) return {kind: 'invalid'};
  const results = (items as Params[]).map(element);
  if (results.every((r) => r.ok)) return {kind: 'ok', value: results.map((r) => (r as {ok: true; value: T}).value)};
  return {kind: 'errors', errors: results.map((r) => (r.ok ? {} : r.errors))};
}

// ---------------------------------------------------------------- SAML metadata check

interface XmlElement {
  name: string;
  children: XmlElement[];
}

class XmlError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(reason);
  }
}

/** A small well-formedness parser: elements, attributes, comments, PIs, CDATA, DOCTYPE, entities. */
function parseXml(text: string): XmlElement {
  let pos = 0;
  const where = (): {line: number; col: number} => {
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    return {line, col: pos - before.lastIndexOf('\n')};
  };
  const fail = (reason: string): never => {
    const {line, col} = where();
    throw new XmlError(reason, line, col);
  };
  const NAME = /[A-Za-z_:][A-Za-z0-9_:.\-\u00b7\u00c0-\uffff]*/y;
  const readName = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) return fail(':invalid_name');
    pos += m[0].length;
    return m[0];
  };
  const skipWs = (): void => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const skipMisc = (): void => {
    for (;;) {
      skipWs();
      if (text.startsWith('<?', pos)) {
        const end = text.indexOf('?>', pos + 2);
        if (end < 0) fail(':unexpected_end');
        pos = end + 2;
      } else if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0) fail(':unexpected_end');
        pos = end + 3;
      } else if (text.startsWith('<!DOCTYPE', pos)) {
        let depth = 0;
        for (; pos < text.length; pos++) {
          if (text[pos] === '[') depth++;
          else if (text[pos] === ']') depth--;
          else if (text[pos] === '>' && depth <= 0) break;
        }
        if (pos >= text.length) fail(':unexpected_end');
        pos++;
      } else {
        return;
      }
    }
  };
  const checkText = (chunk: string): void => {
    if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(chunk)) fail(':bad_entity_reference');
    if (chunk.includes('<')) fail(':unexpected_lt');
  };
  const parseElement = (): XmlElement => {
    if (text[pos] !== '<') fail(':expected_element_start_tag');
    pos++;
    const name = readName();
    const seen = new Set<string>();
    for (;;) {
      const hadSpace = /\s/.test(text[pos] ?? '');
      skipWs();
      if (text.startsWith('/>', pos)) {
        pos += 2;
        return {name, children: []};
      }
      if (text[pos] === '>') {
        pos++;
        break;
      }
      if (pos >= text.length) fail(':unexpected_end');
      if (!hadSpace) fail(':expected_whitespace_or_end_of_tag');
      const attr = readName();
      if (seen.has(attr)) fail(':duplicate_attribute');
      seen.add(attr);
      skipWs();
      if (text[pos] !== '=') fail(':expected_equal_sign');
      pos++;
      skipWs();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(':expected_quote');
      const end = text.indexOf(quote!, pos + 1);
      if (end < 0) fail(':unexpected_end');
      const value = text.slice(pos + 1, end);
      checkText(value);
      pos = end + 1;
    }
    const children: XmlElement[] = [];
    for (;;) {
      const lt = text.indexOf('<', pos);
      if (lt < 0) fail(':unexpected_end');
      checkText(text.slice(pos, lt));
      pos = lt;
      if (text.startsWith('</', pos)) {
        pos += 2;
        const closing = readName();
        if (closing !== name) fail(`{:endtag_does_not_match, {:was, :"${closing}", :should_have_been, :"${name}"}}`);
        skipWs();
        if (text[pos] !== '>') fail(':expected_end_of_tag');
        pos++;
        return {name, children};
      }
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0) fail(':unexpected_end');
        pos = end + 3;
      } else if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos + 9);
        if (end < 0) fail(':unexpected_end');
        pos = end + 3;
      } else if (text.startsWith('<?', pos)) {
        const end = text.indexOf('?>', pos + 2);
        if (end < 0) fail(':unexpected_end');
        pos = end + 2;
      } else {
        children.push(parseElement());
      }
    }
  };
  skipMisc();
  if (pos >= text.length) fail(':expected_element_start_tag');
  return parseElement();
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * Why `metadata` is not usable IdP metadata, in the Elixir-inspect style 0.7.36 puts after
 * "is invalid. Details: " (xmerl fatal errors for malformed XML), or null when it is acceptable.
 */
function samlMetadataProblem(metadata: string): string | null {
  let root: XmlElement;
  try {
    root = parseXml(metadata);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return `{:fatal, {${e.reason}, {:file, :file_name_unknown}, {:line, ${e.line}}, {:col, ${e.col}}}}`;
  }
  if (localName(root.name) !== 'EntityDescriptor') return '{:error, :entity_descriptor_not_found}';
  if (!root.children.some((c) => localName(c.name) === 'IDPSSODescriptor')) return '{:error, :idp_sso_descriptor_not_found}';
  return null;
}
