// `E` on the Configuration screen: the whole configuration, client defaults, security and both
// provider lists, as one JSON document in the admin's editor (docs/terminal-notes.md,
// "Handing the terminal to an editor"). Each value is checked by the field of the section or provider form that edits it,
// and what changed goes through the same review as the forms: the diff, then the lost-update check
// (the configuration re-read and compared before the write).
import type {ApiError, Configuration, ConfigurationUpdate} from '../../../api/index.js';
import type {ConsoleContext} from '../../core/context.js';
import {SESSION_PRESETS} from '../../data/format.js';
import {fieldValue} from '../../interactions/external-edit-form.js';
import type {EditorDocument} from '../../interactions/external-edit.js';
import {createForm, validateForm, type FieldSpec, type FieldValue, type Values} from '../../interactions/form.js';
import {parseList} from '../../data/validators.js';
import {explainOverride, diffUpdate} from './diff.js';
import {oidcFromValues, oidcInitial, oidcSpecs, samlFromValues, samlInitial, samlSpecs} from './provider-forms.js';
import {CUSTOM, defaultsSpecs, sectionInitial, sectionUpdate, securitySpecs} from './sections.js';

/** The review the forms go through (screen.ts), with what a refused write does instead of a form's 422 mapping. */
export type Review = (title: string, opened: Configuration, update: ConfigurationUpdate, reopen: (errors: string[]) => void) => void;

const LISTS = ['default_client_allowed_ips', 'default_client_dns'] as const;
const OPTIONAL_TEXT = ['default_client_endpoint'] as const;
const OPTIONAL_NUMBERS = ['default_client_mtu', 'default_client_persistent_keepalive'] as const;
const TOGGLES = ['local_auth_enabled', 'allow_unprivileged_device_management', 'allow_unprivileged_device_configuration', 'disable_vpn_on_oidc_error'] as const;
const PROVIDER_LISTS = ['openid_connect_providers', 'saml_identity_providers'] as const;
const KEYS = [...LISTS, ...OPTIONAL_TEXT, ...OPTIONAL_NUMBERS, ...TOGGLES, 'vpn_session_duration', ...PROVIDER_LISTS];
/** Optional in a provider: blank when left out, as its form's blank field. */
const PROVIDER_OPTIONAL = new Set(['redirect_uri', 'base_url']);

interface ProviderSide {
  specs: FieldSpec[];
  initial: (p: null) => Values;
  write: (v: Values) => NonNullable<ConfigurationUpdate['openid_connect_providers'] | ConfigurationUpdate['saml_identity_providers']>[number];
}
const SIDES: Record<(typeof PROVIDER_LISTS)[number], ProviderSide> = {
  openid_connect_providers: {specs: oidcSpecs('<EXTERNAL_URL>/'), initial: () => oidcInitial(null), write: oidcFromValues},
  saml_identity_providers: {specs: samlSpecs(), initial: () => samlInitial(null), write: samlFromValues},
};

/** What the file holds: the configuration as its forms have it, lists as arrays, numbers as numbers. */
export function configurationContent(c: Configuration): Record<string, unknown> {
  return {
    default_client_allowed_ips: c.default_client_allowed_ips,
    default_client_dns: c.default_client_dns,
    default_client_endpoint: c.default_client_endpoint,
    default_client_mtu: c.default_client_mtu,
    default_client_persistent_keepalive: c.default_client_persistent_keepalive,
    local_auth_enabled: c.local_auth_enabled ?? true,
    allow_unprivileged_device_management: c.allow_unprivileged_device_management ?? true,
    allow_unprivileged_device_configuration: c.allow_unprivileged_device_configuration ?? true,
    disable_vpn_on_oidc_error: c.disable_vpn_on_oidc_error ?? false,
    vpn_session_duration: c.vpn_session_duration,
    openid_connect_providers: c.openid_connect_providers.map((p) => oidcInitial(p)),
    saml_identity_providers: c.saml_identity_providers.map((p) => samlInitial(p)),
  };
}

/** Errors of a form's own validation, named by the file's members. */
function validated(specs: readonly FieldSpec[], initial: Values, values: Values, name: (key: string) => string): string[] {
  const form = validateForm({...createForm(specs, initial), values});
  return specs.flatMap((s) => (form.errors[s.key] ?? []).map((m) => `${name(s.key)}: ${m}`));
}

function providers(list: (typeof PROVIDER_LISTS)[number], raw: unknown, errors: string[]): Values[] {
  if (!Array.isArray(raw)) {
    errors.push(`${list}: must be a list ([] for none)`);
    return [];
  }
  const side = SIDES[list];
  const known = new Set([...side.specs.map((s) => s.key), 'response_type']);
  const out: Values[] = [];
  const ids = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const at = `${list}[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      errors.push(`${at}: must be an object`);
      return;
    }
    const record = entry as Record<string, unknown>;
    const before = errors.length;
    for (const key of Object.keys(record)) if (!known.has(key)) errors.push(`${at}: ${JSON.stringify(key).slice(0, 80)} is not a field of a provider`);
    if (Object.hasOwn(record, 'response_type') && record.response_type !== 'code') errors.push(`${at}.response_type: must be "code"`);
    const values: Values = side.initial(null);
    for (const spec of side.specs) {
      const given = record[spec.key];
      if (!Object.hasOwn(record, spec.key) || (given === null && PROVIDER_OPTIONAL.has(spec.key))) {
        if (PROVIDER_OPTIONAL.has(spec.key)) values[spec.key] = '';
        else errors.push(`${at}.${spec.key}: missing`);
        continue;
      }
      const got = fieldValue(spec, given);
      if ('error' in got) errors.push(`${at}.${got.error}`);
      else values[spec.key] = got.value;
    }
    const id = String(values.id ?? '').trim();
    if (ids.has(id)) errors.push(`${at}.id: ${JSON.stringify(id)} is used by an earlier provider of the list`);
    ids.add(id);
    // The form's own checks, on values of the right kinds only (a missing one would be "can't be blank" too).
    if (errors.length === before) errors.push(...validated(side.specs, side.initial(null), values, (key) => `${at}.${key}`));
    out.push(values);
  });
  return out;
}

/** The file's document checked member by member and by the forms' checks: the update it asks for, or the errors. */
export function checkConfiguration(c: Configuration, edited: unknown): {ok: true; value: ConfigurationUpdate} | {ok: false; errors: string[]} {
  if (edited === null || typeof edited !== 'object' || Array.isArray(edited)) return {ok: false, errors: ['the file must hold one JSON object']};
  const record = edited as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(record))
    if (!KEYS.includes(key)) errors.push(`${JSON.stringify(key).slice(0, 80)}: not a field of the configuration that can be edited`);
  for (const key of KEYS) if (!Object.hasOwn(record, key)) errors.push(`${key}: missing`);
  if (errors.length > 0) return {ok: false, errors};
  const defaults: Values = {};
  const beforeDefaults = errors.length;
  for (const key of LISTS) {
    const list = record[key];
    if (Array.isArray(list) && list.every((x) => typeof x === 'string')) defaults[key] = list.join(', ');
    else errors.push(`${key}: must be a list of strings`);
  }
  for (const key of OPTIONAL_TEXT) {
    const v = record[key];
    if (v === null || typeof v === 'string') defaults[key] = v ?? '';
    else errors.push(`${key}: must be a string or null`);
  }
  for (const key of OPTIONAL_NUMBERS) {
    const v = record[key];
    if (v === null || (typeof v === 'number' && Number.isInteger(v))) defaults[key] = v === null ? '' : String(v);
    else errors.push(`${key}: must be a whole number or null (the built-in default)`);
  }
  const defaultsOfKind = errors.length === beforeDefaults;
  const security: Values = {};
  const beforeSecurity = errors.length;
  for (const key of TOGGLES) {
    const v = record[key];
    if (typeof v === 'boolean') security[key] = v;
    else errors.push(`${key}: must be true or false`);
  }
  const seconds = record.vpn_session_duration;
  if (typeof seconds === 'number' && Number.isInteger(seconds)) {
    const preset = SESSION_PRESETS.find((p) => p.seconds === seconds);
    security.session_preset = preset ? String(preset.seconds) : CUSTOM;
    security.session_seconds = String(seconds);
  } else errors.push('vpn_session_duration: must be a whole number of seconds (0: never)');
  const securityOfKind = errors.length === beforeSecurity;
  const lists = {
    openid_connect_providers: providers('openid_connect_providers', record.openid_connect_providers, errors),
    saml_identity_providers: providers('saml_identity_providers', record.saml_identity_providers, errors),
  };
  // The forms' own checks of each section whose members are all of their kinds: every complaint
  // in one round, a provider's not hiding a section's.
  const defaultsInitial = sectionInitial('defaults', c);
  const securityInitial = sectionInitial('security', c);
  if (defaultsOfKind) errors.push(...validated(defaultsSpecs(), defaultsInitial, defaults, (k) => k));
  if (securityOfKind) errors.push(...validated(securitySpecs(), securityInitial, security, (k) => (k === 'session_seconds' ? 'vpn_session_duration' : k)));
  if (errors.length > 0) return {ok: false, errors};
  // Lists compared as lists: the same addresses written with other spacing are not a change.
  for (const key of LISTS)
    if (parseList(String(defaults[key])).join(',') === parseList(String(defaultsInitial[key])).join(',')) defaults[key] = defaultsInitial[key] as FieldValue;
  const update: ConfigurationUpdate = {...sectionUpdate('defaults', defaults, defaultsInitial), ...sectionUpdate('security', security, securityInitial)};
  // 0.7.36 replaces a provider list whole: sent whole when any of it changed.
  const before = {
    openid_connect_providers: c.openid_connect_providers.map((p) => oidcFromValues(oidcInitial(p))),
    saml_identity_providers: c.saml_identity_providers.map((p) => samlFromValues(samlInitial(p))),
  };
  const oidc = lists.openid_connect_providers.map(oidcFromValues);
  const saml = lists.saml_identity_providers.map(samlFromValues);
  if (JSON.stringify(oidc) !== JSON.stringify(before.openid_connect_providers)) update.openid_connect_providers = oidc;
  if (JSON.stringify(saml) !== JSON.stringify(before.saml_identity_providers)) update.saml_identity_providers = saml;
  return {ok: true, value: update};
}

/** A 422 on the configuration as lines: the server's path, its words, and why where the environment wins. */
export function configurationErrorLines(err: ApiError): string[] {
  return Object.entries(err.fieldErrors).flatMap(([path, messages]) =>
    messages.map((m) => {
      const why = explainOverride(m);
      return `${path === 'base' ? '' : `${path}: `}${m}${why ? `. ${why}` : ''}`;
    }),
  );
}

export function configurationEditorDocument(_ctx: ConsoleContext, c: Configuration, review: Review): EditorDocument<ConfigurationUpdate> {
  return {
    what: 'the configuration',
    stem: 'configuration',
    notes: [
      'Lists are arrays; endpoint, MTU and keepalive null fall back to the built-in default; vpn_session_duration is in seconds (0: never).',
      'A provider list is replaced whole (Firezone 0.7.36): remove an entry to delete that provider.',
      "This file holds the providers' client secrets: it is yours alone (0600) and removed when the editor exits.",
    ],
    content: configurationContent(c),
    check: (edited) => checkConfiguration(c, edited),
    changes: (update) => diffUpdate(c, update),
    propose: (_c, update, _changes, reopen) => review('Save these changes to the configuration?', c, update, reopen),
  };
}
