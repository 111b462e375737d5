// The pure side of `E`: the file's text (a comment head, errors of the last try, the JSON), reading
// it back, and the checks that make a file hold exactly what the item's form would take
// (src/state/interactions/external-edit.ts, external-edit-form.ts; the configuration's in
// src/state/screens/configuration/editor.ts).
import {describe, expect, it} from 'vitest';
import {checkFields} from '../../src/state/interactions/external-edit-form.js';
import {editorText, parseFailure, withoutComments} from '../../src/state/interactions/external-edit.js';
import {checkConfiguration, configurationContent} from '../../src/state/screens/configuration/editor.js';
import {deviceEditSpecs} from '../../src/state/screens/devices/forms.js';
import {ruleFormSpecs} from '../../src/state/screens/rules/forms.js';
import {configuration} from '../fixtures/data.js';

const doc = {
  what: 'device a',
  stem: 'a',
  notes: ['one note'],
  content: {},
  check: () => ({ok: false as const, errors: []}),
  changes: () => [],
  propose: () => {},
};

describe('the file', () => {
  it('is a comment head, the errors of the last try indented under it, then the JSON; comments come off again', () => {
    const body = '{\n  "name": "a"\n}\n';
    const text = editorText(doc, body, ['name: bad', 'two\nlines']);
    expect(text.split('\n')).toEqual([
      '# Edit device a.',
      '# Save and quit to see the changes before anything is sent; quit without',
      '# saving, or empty the file, to send nothing. Lines that start with # are',
      '# ignored.',
      '# one note',
      '#',
      '# Not applied, fix and save again (or empty the file to give up):',
      '#   name: bad',
      '#   two',
      '#   lines',
      '{',
      '  "name": "a"',
      '}',
      '',
    ]);
    expect(withoutComments(text).trim()).toBe(body.trim());
    expect(editorText(doc, body, [])).not.toContain('Not applied');
    // The head is broken between words at 78 columns; a word longer than that stands alone.
    expect(
      editorText({...doc, notes: [`${'word '.repeat(30)}${'x'.repeat(90)}`]}, body, [])
        .split('\n')
        .slice(4, 7)
        .map((l) => l.length),
    ).toEqual([76, 76, 92]);
    // A line that starts with # after blanks is a comment too; a # inside a JSON string is not.
    expect(withoutComments('  # x\n{"a": "#b"}')).toBe('{"a": "#b"}');
  });

  it("says where JSON.parse stopped, in the JSON's own lines", () => {
    const body = '{\n  "a": 1,\n  b: 2\n}';
    let err: unknown;
    try {
      JSON.parse(body);
    } catch (e) {
      err = e;
    }
    expect(parseFailure(body, err)).toMatch(/^not JSON: .* \(line 3 of the JSON, column 3, not counting comment lines\)$/);
    expect(parseFailure(body, new Error('Unexpected end of JSON input'))).toBe('not JSON: Unexpected end of JSON input');
  });
});

describe('checkFields (a device, a rule)', () => {
  const initial = {name: 'a', description: ''};
  it('takes an object with exactly the form’s members, of their kinds, within their limits, as the form validates them', () => {
    expect(checkFields(deviceEditSpecs(), initial, {name: 'b', description: 'd'})).toEqual({ok: true, value: {name: 'b', description: 'd'}});
    const refused = (edited: unknown) => {
      const r = checkFields(deviceEditSpecs(), initial, edited);
      return r.ok ? [] : r.errors;
    };
    expect(refused([1])).toEqual(['the file must hold one JSON object with the members "name", "description"']);
    expect(refused(null)).toHaveLength(1);
    expect(refused({name: 'b'})).toEqual(['description: missing (to clear a text, write "")']);
    expect(refused({name: 'b', description: '', ipv4: '10.0.0.9'})).toEqual(['"ipv4": not a field that can be edited here (the fields are name, description)']);
    expect(refused({name: 7, description: true})).toEqual(['name: must be a string (in double quotes)', 'description: must be a string (in double quotes)']);
    expect(refused({name: 'b', description: 'x'.repeat(2049)})).toEqual(['description: should be at most 2048 character(s)']);
    expect(refused({name: 'b', description: 'two\nlines'})).toEqual(['description: must be one line']);
    // The form's own validation, with 0.7.36's words: a blank name.
    expect(refused({name: '', description: ''})).toEqual(["name: can't be blank"]);
    // An inherited name is not a member of the file.
    expect(refused(JSON.parse('{"__proto__": {"name": "x"}, "description": ""}'))).toEqual([
      '"__proto__": not a field that can be edited here (the fields are name, description)',
      'name: missing (to clear a text, write "")',
    ]);
  });

  it('a choice is one of its values, a toggle true or false; a disabled field is not validated', () => {
    const specs = ruleFormSpecs().filter((s) => s.key !== 'user');
    const initial = {action: 'accept', destination: '10.0.0.0/8', port_type: '', port_range: ''};
    const r = checkFields(specs, initial, {action: 'allow', destination: '10.0.0.0/8', port_type: '', port_range: 'junk'});
    expect(r).toEqual({ok: false, errors: ['action: must be one of "accept", "drop"']});
    expect(checkFields(specs, initial, {...initial, port_range: 'junk'}).ok).toBe(true);
    expect(checkFields(specs, initial, {...initial, port_type: 'tcp', port_range: 'junk'}).ok).toBe(false);
  });
});

describe('checkConfiguration', () => {
  const c = configuration({
    openid_connect_providers: [
      {
        id: 'okta',
        label: 'Okta',
        scope: 'openid email profile',
        response_type: 'code',
        client_id: 'cid',
        client_secret: 'secret',
        discovery_document_uri: 'https://okta.example.com/.well-known/openid-configuration',
        redirect_uri: null,
        auto_create_users: false,
      },
    ],
  });
  const content = () => JSON.parse(JSON.stringify(configurationContent(c))) as Record<string, unknown>;

  it('the file as written is no change; a changed value is that field alone; a provider change sends its list whole', () => {
    expect(checkConfiguration(c, content())).toEqual({ok: true, value: {}});
    const edited = content();
    edited.default_client_dns = ['9.9.9.9'];
    edited.vpn_session_duration = 3600;
    expect(checkConfiguration(c, edited)).toEqual({ok: true, value: {default_client_dns: ['9.9.9.9'], vpn_session_duration: 3600}});
    const provider = content();
    (provider.openid_connect_providers as Array<Record<string, unknown>>)[0]!.label = 'Okta SSO';
    const update = checkConfiguration(c, provider);
    expect(update.ok && update.value.openid_connect_providers?.map((p) => p.label)).toEqual(['Okta SSO']);
    expect(update.ok && Object.keys(update.value)).toEqual(['openid_connect_providers']);
  });

  it('refuses what the forms refuse, naming the member', () => {
    const refused = (change: (o: Record<string, unknown>) => void) => {
      const o = content();
      change(o);
      const r = checkConfiguration(c, o);
      return r.ok ? [] : r.errors;
    };
    expect(refused((o) => (o.default_client_mtu = '1400'))).toEqual(['default_client_mtu: must be a whole number or null (the built-in default)']);
    expect(refused((o) => (o.default_client_mtu = 9000))[0]).toMatch(/^default_client_mtu: /);
    expect(refused((o) => (o.default_client_dns = '1.1.1.1'))).toEqual(['default_client_dns: must be a list of strings']);
    expect(refused((o) => delete o.local_auth_enabled)).toEqual(['local_auth_enabled: missing']);
    expect(refused((o) => (o.logo = {}))).toEqual(['"logo": not a field of the configuration that can be edited']);
    expect(refused((o) => (o.vpn_session_duration = -1))[0]).toMatch(/^vpn_session_duration: /);
    const providers = (o: Record<string, unknown>) => o.openid_connect_providers as Array<Record<string, unknown>>;
    expect(refused((o) => providers(o).push({...providers(o)[0]!}))).toEqual([
      'openid_connect_providers[1].id: "okta" is used by an earlier provider of the list',
    ]);
    expect(refused((o) => (providers(o)[0]!.response_type = 'token'))).toEqual(['openid_connect_providers[0].response_type: must be "code"']);
    expect(refused((o) => delete providers(o)[0]!.client_id)).toEqual(['openid_connect_providers[0].client_id: missing']);
    expect(refused((o) => (providers(o)[0]!.label = ''))).toEqual(["openid_connect_providers[0].label: can't be blank"]);
  });
});
