// The Configuration screen: its lines and cursor entries, the section and provider forms, and
// saving with a diff to confirm and the lost-update guard (0.7.36 has no conditional update, so
// the record is re-read right before writing; if it moved, the admin chooses re-apply or reload).
import {openRawView} from '../../interactions/raw-view.js';
import {editInEditor} from '../../interactions/external-edit.js';
import {defaultsWarnings} from '../../interactions/config-check.js';
import {configurationEditorDocument, configurationErrorLines} from './editor.js';
import {errorText} from '../../core/state.js';
import {ApiError, type Configuration, type ConfigurationUpdate} from '../../../api/index.js';
import type {Action} from '../../input/keymap.js';
import type {DialogModal, FormModal} from '../../core/modals.js';
import {defaultsSpecs, entryKey, parseEntryKey, sectionInitial, sectionUpdate, securitySpecs, type Section} from './sections.js';
import {diffConfigurations, diffUpdate, explainOverride} from './diff.js';
import {
  oidcFromValues,
  oidcInitial,
  oidcSpecs,
  providerUpdate,
  samlFromValues,
  samlInitial,
  samlSpecs,
  type ProviderKind,
  type ProviderOp,
} from './provider-forms.js';
import {createForm, str, type FormState} from '../../interactions/form.js';
import {NOT_VISIBLE} from '../../data/snapshot.js';
import {formatKeepalive, formatList, formatSessionDuration, formatTimestamp, formatWhen, parseTime} from '../../data/format.js';
import type {ConsoleContext} from '../../core/context.js';
import {formFailed} from '../../interactions/form-actions.js';
import type {DetailLine} from '../display.js';

export function configurationLines(c: Configuration | null, now: number, reveal: boolean, hidden = false): DetailLine[] {
  if (c === null) return [{value: hidden ? NOT_VISIBLE : 'The configuration has not been loaded yet.'}];
  const bool = (v: boolean | null) => (v === null ? 'not set (server default applies)' : v ? 'on' : 'off');
  const orDefault = (v: string | number | null, builtIn: string) => (v === null || v === '' ? `not set (built-in default ${builtIn})` : String(v));
  const lines: DetailLine[] = [
    {heading: true, value: 'Client defaults  (Enter edits)', entry: 'defaults'},
    {label: 'Allowed IPs', value: formatList(c.default_client_allowed_ips)},
    {label: 'DNS servers', value: formatList(c.default_client_dns)},
    {label: 'Endpoint', value: orDefault(c.default_client_endpoint, '<server host>:51820')},
    {label: 'MTU', value: orDefault(c.default_client_mtu, '1280')},
    {
      label: 'Persistent keepalive',
      value: c.default_client_persistent_keepalive === null ? 'not set (built-in default 25)' : formatKeepalive(c.default_client_persistent_keepalive),
    },
    {heading: true, value: 'Security  (Enter edits)', entry: 'security'},
    {label: 'Local auth', value: bool(c.local_auth_enabled)},
    {label: 'Unprivileged device management', value: bool(c.allow_unprivileged_device_management)},
    {label: 'Unprivileged device configuration', value: bool(c.allow_unprivileged_device_configuration)},
    {label: 'Disable VPN on OIDC error', value: bool(c.disable_vpn_on_oidc_error)},
    {label: 'VPN session duration', value: `${formatSessionDuration(c.vpn_session_duration)} (${c.vpn_session_duration} s)`},
    {heading: true, value: `OpenID Connect providers (${c.openid_connect_providers.length})`},
  ];
  for (const p of c.openid_connect_providers) {
    lines.push({
      label: p.id,
      value: `${p.label} · client ${p.client_id} · scope "${p.scope}" · auto-create ${p.auto_create_users ? 'yes' : 'no'}`,
      entry: entryKey({kind: 'oidc', id: p.id}),
    });
    lines.push({label: '  discovery', value: p.discovery_document_uri});
    lines.push({label: '  client secret', value: reveal ? p.client_secret : '•••••••••••• (v reveals)'});
    if (p.redirect_uri) lines.push({label: '  redirect URI', value: p.redirect_uri});
  }
  lines.push({value: '+ add an OpenID Connect provider', entry: 'oidc-add', tone: 'muted'});
  lines.push({heading: true, value: `SAML identity providers (${c.saml_identity_providers.length})`});
  for (const p of c.saml_identity_providers) {
    const entityId = /entityID="([^"]*)"/.exec(p.metadata)?.[1] ?? 'unknown entity';
    lines.push({
      label: p.id,
      value: `${p.label} · base URL ${p.base_url ?? 'default'} · auto-create ${p.auto_create_users ? 'yes' : 'no'}`,
      entry: entryKey({kind: 'saml', id: p.id}),
    });
    lines.push({label: '  metadata', value: `${entityId} (${p.metadata.length} bytes of XML)`});
    lines.push({
      label: '  signing',
      value: `requests ${p.sign_requests ? 'signed' : 'unsigned'}, metadata ${p.sign_metadata ? 'signed' : 'unsigned'}, assertions ${p.signed_assertion_in_resp ? 'required signed' : 'may be unsigned'}, envelopes ${p.signed_envelopes_in_resp ? 'required signed' : 'may be unsigned'}`,
    });
    if (reveal) lines.push({label: '  metadata XML', value: p.metadata.replace(/\s+/g, ' ')});
  }
  lines.push({value: '+ add a SAML identity provider', entry: 'saml-add', tone: 'muted'});
  lines.push({heading: true, value: 'Logo (read-only)'});
  const logo = c.logo;
  lines.push({value: !logo || (!logo.url && !logo.data) ? 'Default' : logo.url ? `URL ${logo.url}` : `Uploaded image (${logo.type ?? 'unknown type'})`});
  lines.push({heading: true, value: 'Record'});
  lines.push({label: 'Updated', value: formatWhen(parseTime(c.updated_at), now)});
  return lines;
}

/** The cursor entries in screen order. */
export function configurationEntries(c: Configuration | null): string[] {
  return configurationLines(c, 0, false).flatMap((l) => (l.entry ? [l.entry] : []));
}

const PROVIDER_NOTE = 'The whole provider list is sent on save (Firezone replaces it wholesale); other providers are kept as they are on the server.';

/** Maps a configuration 422 onto the form that produced it (nested provider paths included). */
function mapConfigErrors(
  purpose: {section: Section} | {provider: ProviderKind; editId: string | null; values: () => FormState['values']},
  sent: () => ConfigurationUpdate,
) {
  return (fieldErrors: Record<string, string[]>): Record<string, string[]> => {
    const mapped: Record<string, string[]> = {};
    for (const [path, messages] of Object.entries(fieldErrors)) {
      const withHelp = messages.map((msg) => {
        const why = explainOverride(msg);
        return why ? `${msg}. ${why}` : msg;
      });
      const nested = /^(openid_connect_providers|saml_identity_providers)\[(\d+)\]\.(.+)$/.exec(path);
      if (nested && 'provider' in purpose) {
        const update = sent();
        const list = (nested[1] === 'openid_connect_providers' ? update.openid_connect_providers : update.saml_identity_providers) ?? [];
        const mine = purpose.editId ?? str(purpose.values(), 'id').trim();
        const sentProvider = list[Number(nested[2])];
        mapped[sentProvider && sentProvider.id === mine ? nested[3]! : `${nested[1]}[${nested[2]}] (${sentProvider?.id ?? '?'}).${nested[3]}`] = withHelp;
      } else if ('section' in purpose && path === 'vpn_session_duration') {
        mapped.session_seconds = withHelp;
      } else {
        mapped[path] = withHelp;
      }
    }
    return mapped;
  };
}

/**
 * The review dialog: the diff, then on `y` the lost-update check and the write. `build` recomputes
 * the update on top of any base, which is what makes re-applying after a conflict possible.
 */
function review(
  host: ConsoleContext,
  title: string,
  opened: Configuration,
  build: (base: Configuration) => ConfigurationUpdate,
  form: FormModal | null,
  reopen?: (errors: string[]) => void,
): void {
  const update = build(opened);
  const lines = diffUpdate(opened, update);
  // New client defaults that no client config can be built from (0.7.36 takes "999.1.1.1" as a
  // DNS name, "0" as the endpoint 0.0.0.0): said before they are saved, not at the next device.
  const touchesDefaults = Object.keys(update).some((k) => k.startsWith('default_client_'));
  const warnings = touchesDefaults ? defaultsWarnings({...opened, ...update} as Configuration) : [];
  const dialog: Omit<DialogModal, 'kind'> = {
    title,
    lines: [
      {text: 'What will change:', tone: 'muted'},
      ...lines.map((text) => ({text: `  ${text}`})),
      ...warnings.map((text) => ({text, tone: 'warning' as const})),
    ],
    choices: [
      {action: 'confirm', label: 'save', run: () => save(host, opened, build, form, reopen)},
      {action: 'cancel', label: form ? 'back to the form' : 'cancel'},
    ],
  };
  host.openDialog(dialog);
}

/** `reopen`: the editor's answer to a 422 (`E`), opened once the dialog has closed; a form's is its fields. */
async function save(
  host: ConsoleContext,
  opened: Configuration,
  build: (base: Configuration) => ConfigurationUpdate,
  form: FormModal | null,
  reopen?: (errors: string[]) => void,
): Promise<void | (() => void)> {
  host.message({tone: 'info', text: 'Checking that the configuration has not changed meanwhile…'});
  const current = (await host.client.getConfiguration()).data;
  if (current.updated_at !== opened.updated_at) {
    const changes = diffConfigurations(opened, current);
    host.message({tone: 'warning', text: 'The configuration changed on the server since you opened it: nothing was saved'});
    host.openDialog({
      title: 'The configuration changed on the server since you opened the form. Nothing was saved.',
      lines: [
        {text: 'Changed on the server:', bold: true},
        ...(changes.length ? changes : ['(only the update time moved)']).map((text) => ({text: `  ${text}`})),
      ],
      choices: [
        {
          action: 'reapply',
          label: 're-apply your edit on top of it (you see the diff again)',
          run: () => {
            review(host, 'Save these changes to the configuration?', current, build, form, reopen);
          },
        },
        {
          action: 'reload',
          label: "reload: drop your edit and show the server's configuration",
          run: () => {
            if (form) host.removeModal(form);
            host.refresh();
            host.message({tone: 'info', text: 'Your edit was dropped; the configuration is reloaded from the server'});
          },
        },
        {action: 'cancel', label: form ? 'back to the form' : 'cancel'},
      ],
    });
    return;
  }
  const update = build(current);
  try {
    const saved = await host.client.updateConfiguration(update);
    host.configurationSaved(saved.data, current);
    if (form) host.removeModal(form);
    const n = diffUpdate(current, update).length;
    host.afterWrite(`Configuration saved (${n} change${n === 1 ? '' : 's'}) at ${formatTimestamp(parseTime(saved.data.updated_at))}`);
  } catch (err) {
    // A 422 goes back onto the form, with every value kept; the dialog closes.
    if (err instanceof ApiError && err.kind === 'validation' && form) {
      formFailed(host, form, err);
      return;
    }
    if (err instanceof ApiError && err.kind === 'validation' && reopen) {
      const lines = configurationErrorLines(err);
      return () => reopen(lines.length > 0 ? lines : [errorText(err)]);
    }
    throw err;
  }
}

function openSection(host: ConsoleContext, c: Configuration, section: Section): void {
  host.openForm({
    title: section === 'defaults' ? 'Client defaults' : 'Security',
    notes:
      section === 'defaults'
        ? ['Devices that use a default pick up a change at once (their next config shows it).']
        : ['Saving shows what changes and asks before anything is sent.'],
    form: createForm(section === 'defaults' ? defaultsSpecs() : securitySpecs(), sectionInitial(section, c)),
    mapErrors: mapConfigErrors({section}, () => ({})),
    save: async (form) => {
      const update = sectionUpdate(section, form.values, form.initial);
      const self = host.state.modals[host.state.modals.length - 1] as FormModal;
      if (diffUpdate(c, update).length === 0) {
        host.removeModal(self);
        host.message({tone: 'info', text: 'Nothing changed'});
        return;
      }
      review(host, 'Save these changes to the configuration?', c, () => update, self);
    },
  });
}

function openProvider(host: ConsoleContext, c: Configuration, kind: ProviderKind, editId: string | null): void {
  let values: FormState['values'] = {};
  let op: ProviderOp | null = null;
  const build = (base: Configuration) => (op ? providerUpdate(base, op) : {});
  const existing =
    editId === null
      ? null
      : kind === 'oidc'
        ? (c.openid_connect_providers.find((p) => p.id === editId) ?? null)
        : (c.saml_identity_providers.find((p) => p.id === editId) ?? null);
  host.openForm({
    title: existing
      ? `${kind === 'oidc' ? 'OIDC' : 'SAML'} provider ${existing.id}`
      : kind === 'oidc'
        ? 'Add OpenID Connect provider'
        : 'Add SAML identity provider',
    notes: [PROVIDER_NOTE],
    form:
      kind === 'oidc'
        ? createForm(oidcSpecs('<EXTERNAL_URL>/'), oidcInitial(existing as Configuration['openid_connect_providers'][number] | null))
        : createForm(samlSpecs(), samlInitial(existing as Configuration['saml_identity_providers'][number] | null)),
    mapErrors: mapConfigErrors({provider: kind, editId, values: () => values}, () => build(c)),
    save: async (form) => {
      values = form.values;
      const provider = kind === 'oidc' ? oidcFromValues(form.values) : samlFromValues(form.values);
      const list: Array<{id: string; label: string}> = kind === 'oidc' ? c.openid_connect_providers : c.saml_identity_providers;
      const clash = list.find((p) => p.id === provider.id && p.id !== editId);
      if (clash) {
        throw new ApiError({
          kind: 'validation',
          method: 'PATCH',
          path: '/v0/configuration',
          message: `ID already used by ${clash.label} — edit it instead`,
          fieldErrors: {id: [`already used by ${clash.label} — edit it instead`]},
        });
      }
      op = editId === null ? {kind, op: 'add', provider} : {kind, op: 'edit', id: editId, provider};
      const self = host.state.modals[host.state.modals.length - 1] as FormModal;
      if (diffUpdate(c, build(c)).length === 0) {
        host.removeModal(self);
        host.message({tone: 'info', text: 'Nothing changed'});
        return;
      }
      review(host, 'Save these changes to the configuration?', c, build, self);
    },
  });
}

export const configurationResource = {
  run(host: ConsoleContext, action: Action): void {
    const state = host.state;
    const c = state.snapshot?.configuration ?? null;
    const entries = configurationEntries(c);
    const at = Math.max(0, entries.indexOf(state.configuration.entry));
    const go = (i: number) =>
      host.set((s) => ({...s, configuration: {...s.configuration, entry: entries[Math.max(0, Math.min(entries.length - 1, i))] ?? 'defaults'}}));
    switch (action) {
      case 'up':
        return go(at - 1);
      case 'down':
        return go(at + 1);
      case 'home':
        return go(0);
      case 'end':
        return go(entries.length - 1);
      case 'pageDown':
        return go(at + 5);
      case 'pageUp':
        return go(at - 5);
      case 'reveal':
        host.set((s) => ({...s, configuration: {...s.configuration, reveal: !s.configuration.reveal}}));
        return;
      case 'edit':
      case 'new':
      case 'delete':
        if (c) entryAction(host, c, entries[at] ?? 'defaults', action);
        return;
      case 'editor':
        if (c)
          editInEditor(
            host,
            configurationEditorDocument(host, c, (title, opened, update, reopen) => review(host, title, opened, () => update, null, reopen)),
          );
        else host.message({tone: 'info', text: 'No configuration to edit: this token cannot read it, or none came yet'});
        return;
      case 'raw':
        if (c) openRawView(host, 'Configuration, as the server sent it', c);
        else host.message({tone: 'info', text: 'No configuration to show: this token cannot read it, or none came yet'});
        return;
      default:
    }
  },
};

function entryAction(host: ConsoleContext, c: Configuration, key: string, action: 'edit' | 'new' | 'delete'): void {
  const entry = parseEntryKey(key);
  const providerKind: ProviderKind | null = entry.kind.startsWith('oidc') ? 'oidc' : entry.kind.startsWith('saml') ? 'saml' : null;
  const id = entry.kind === 'oidc' || entry.kind === 'saml' ? entry.id : null;
  if (action === 'delete') {
    if (!providerKind || id === null) {
      host.message({tone: 'info', text: 'Only providers can be deleted; move the cursor onto one'});
      return;
    }
    const op: ProviderOp = {kind: providerKind, op: 'delete', id};
    review(
      host,
      `Delete ${providerKind === 'oidc' ? 'OIDC' : 'SAML'} provider ${id}? Users signing in through it lose that way in; u cannot bring it back.`,
      c,
      (base) => providerUpdate(base, op),
      null,
    );
    return;
  }
  if (entry.kind === 'defaults' || entry.kind === 'security') {
    if (action === 'new') {
      host.message({tone: 'info', text: 'n adds a provider: move the cursor onto the OpenID Connect or SAML providers', place: true});
      return;
    }
    openSection(host, c, entry.kind);
    return;
  }
  if (!providerKind) return;
  openProvider(host, c, providerKind, action === 'edit' ? id : null);
}
