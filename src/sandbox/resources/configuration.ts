// /v0/configuration as 0.7.36 implements it (docs/firezone-0.7.36.md, "Configuration: raw values",
// "Configuration: field rules", "Configuration and providers (wholesale replacement)" and
// "Environment overrides"; Config.Configuration.Changeset).

import {Changeset, castBoolean, castInteger, castString, numberErrors} from '../changeset.js';
import {requireAdmin, now, type SandboxCore, type Subject} from '../core.js';
import {Crash, Invalid} from '../errors.js';
import {inetStorable, readForm, type Inet} from '../inet.js';
import {isParamsMap} from '../json.js';
import {castEmbedList, logoChangeset, oidcChangeset, samlChangeset} from '../providers.js';
import type {ConfigEcho} from '../render.js';
import {CONFIG_ENV_VARS, type ConfigKey} from '../settings.js';
import type {ConfigRow, Logo} from '../store.js';
import {allowedIpsErrors, castInetArray, castStringArray, dnsErrors, endpointErrors} from '../validators.js';

const BOOLEAN_FIELDS = [
  'local_auth_enabled',
  'allow_unprivileged_device_management',
  'allow_unprivileged_device_configuration',
  'disable_vpn_on_oidc_error',
] as const;

export function showConfiguration(core: SandboxCore, subject: Subject): ConfigRow {
  requireAdmin(subject);
  return core.store.config;
}

function castEmbeds(cs: Changeset, core: SandboxCore, config: ConfigRow): void {
  if (cs.supplied('logo')) {
    const value = cs.params.logo;
    if (value === null) {
      cs.put('logo', null);
    } else if (!isParamsMap(value)) {
      cs.addError('logo', 'is invalid');
    } else {
      const result = logoChangeset(value);
      if (result.ok) cs.changes.set('logo', result.value);
      else cs.setNested('logo', result.errors);
    }
  }
  castEmbedListField(cs, 'openid_connect_providers', config.openid_connect_providers.length, (v) => castEmbedList(v, oidcChangeset));
  castEmbedListField(cs, 'saml_identity_providers', config.saml_identity_providers.length, (v) =>
    castEmbedList(v, (p) => samlChangeset(p, core.settings.samlBaseUrl)),
  );
}

function castEmbedListField(cs: Changeset, field: string, currentLength: number, castList: (value: unknown) => ReturnType<typeof castEmbedList>): void {
  if (!cs.supplied(field)) return;
  const result = castList(cs.params[field]);
  if (result.kind === 'invalid') cs.addError(field, 'is invalid');
  else if (result.kind === 'errors') cs.setNested(field, result.errors);
  // Embeds without a primary key are replaced wholesale, so any supplied list is a change
  // (except replacing an empty list with another empty one).
  else if (result.value.length > 0 || currentLength > 0) cs.changes.set(field, result.value);
}

interface UpdatedConfiguration {
  config: ConfigRow;
  echo: ConfigEcho;
}

export function updateConfiguration(core: SandboxCore, subject: Subject, wrapper: unknown): UpdatedConfiguration {
  requireAdmin(subject);
  const config = core.store.config;
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  const cs = new Changeset(config as unknown as Record<string, unknown>, wrapper);
  for (const field of BOOLEAN_FIELDS) cs.cast(field, castBoolean);
  cs.cast('default_client_persistent_keepalive', castInteger);
  cs.cast('default_client_mtu', castInteger);
  cs.cast('default_client_endpoint', castString);
  cs.cast('default_client_dns', castStringArray, []);
  cs.cast('default_client_allowed_ips', castInetArray, []);
  cs.cast('vpn_session_duration', castInteger);
  castEmbeds(cs, core, config);
  cs.update('default_client_dns', (v) => (v === null ? v : (v as string[]).map((s) => s.trim())));
  cs.update('default_client_endpoint', (v) => (v === null ? v : (v as string).trim()));

  // config_changeset/2 validates each field's current value (change or stored) with its definition
  const rule = (field: string, validate: (value: never) => string[]): void => {
    const value = cs.get(field);
    if (value === null || value === undefined) return;
    const errors = validate(value as never);
    if (errors.length > 0) cs.addErrors(field, errors);
  };
  rule('default_client_persistent_keepalive', (v: number) => numberErrors(v, {gte: 0, lte: 120}));
  rule('default_client_mtu', (v: number) => numberErrors(v, {gte: 576, lte: 1500}));
  rule('default_client_endpoint', (v: string) => endpointErrors(v));
  rule('default_client_dns', (v: string[]) => dnsErrors(v));
  rule('default_client_allowed_ips', (v: Inet[]) => allowedIpsErrors(v));
  rule('vpn_session_duration', (v: number) => numberErrors(v, {gte: 0, lte: 2147483647}));

  // ensure_no_overridden_changes/1
  for (const key of cs.changes.keys()) {
    const source = core.settings.overriddenBy(key as ConfigKey);
    if (key in CONFIG_ENV_VARS && source) cs.addError(key, `cannot be changed; it is overridden by ${source} environment variable`);
  }
  if (!cs.valid) throw new Invalid(cs.errorsJson());
  if (cs.changes.size === 0) return {config, echo: {}};

  if (cs.hasChange('vpn_session_duration') && cs.get('vpn_session_duration') === null) {
    throw new Crash('Postgrex.Error: null value in column "vpn_session_duration" violates not-null constraint');
  }
  const allowed = cs.get('default_client_allowed_ips') as Inet[] | null;
  if (allowed && !allowed.every(inetStorable)) throw new Crash('Postgrex.Error: invalid inet netmask');

  const echo: ConfigEcho = {};
  const row = config as unknown as Record<string, unknown>;
  for (const [key, value] of cs.changes) {
    if (key === 'default_client_allowed_ips') {
      echo.defaultClientAllowedIps = value as Inet[] | null;
      row[key] = value === null ? null : (value as Inet[]).map(readForm);
    } else if (key === 'logo') {
      row[key] = value as Logo | null;
    } else {
      row[key] = value;
    }
  }
  config.updatedAt = now();
  core.store.renderVersion++;
  return {config, echo};
}
