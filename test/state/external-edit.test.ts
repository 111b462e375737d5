// The pure side of `E`: the file's text (a comment head, errors of the last try, the JSON), reading
// it back, and the checks that make a file hold exactly what the item's form would take
// (src/state/interactions/external-edit.ts, external-edit-form.ts; the configuration's in
// src/state/screens/configuration/editor.ts).
import {describe, expect, it} from 'vitest';
import {ApiError} from '../../src/api/index.js';
import type {ConsoleContext} from '../../src/state/core/context.js';
import {FIELD_UNITS_MAX} from '../../src/state/input/limits.js';
import {checkFields, fieldValue, formDocument, serverErrorLines, shownValue} from '../../src/state/interactions/external-edit-form.js';
import type {FieldSpec, Values} from '../../src/state/interactions/form.js';
import {commentsBlanked, editorText, parseFailure, repeatedMembers, withoutComments} from '../../src/state/interactions/external-edit.js';
import {checkConfiguration, configurationContent, configurationErrorLines} from '../../src/state/screens/configuration/editor.js';
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

  it("says where JSON.parse stopped, in the saved file's own lines (its comments emptied, not removed)", () => {
    const file = '# a comment\n{\n  "a": 1,\n  # another\n  b: 2\n}';
    const blanked = commentsBlanked(file);
    expect(blanked).toBe('\n{\n  "a": 1,\n\n  b: 2\n}');
    let err: unknown;
    try {
      JSON.parse(blanked);
    } catch (e) {
      err = e;
    }
    expect(parseFailure(blanked, err)).toMatch(/^not JSON: .* \(line 5, column 3 of the file you saved\)$/);
    const body = blanked;
    expect(parseFailure(body, new Error('Unexpected end of JSON input'))).toBe('not JSON: Unexpected end of JSON input');
  });
});

describe('repeatedMembers', () => {
  const twice = (key: string, line: number) =>
    `${key} is written twice in one object (line ${line} of the file you saved); JSON would keep only the last: keep one`;

  it('names a member written twice in the same object, with the line of each repeat', () => {
    expect(repeatedMembers('{\n  "name": "a",\n  "description": "",\n  "name": "b"\n}')).toEqual([twice('"name"', 4)]);
    expect(repeatedMembers('{"a": 1, "a": 2, "a": 3}')).toEqual([twice('"a"', 1), twice('"a"', 1)]);
  });

  it('tells members apart by their decoded names, and objects apart by nesting', () => {
    // "\u0061" is "a": JSON.parse would keep only the second.
    expect(repeatedMembers('{"a": 1, "\\u0061": 2}')).toEqual([twice('"a"', 1)]);
    // The same name in two objects, in a list, or as a value is no repeat.
    expect(repeatedMembers('{"p": [{"id": "x", "id2": "id"}, {"id": "y"}], "q": {"p": "p"}, "id": "p"}')).toEqual([]);
    expect(repeatedMembers('[{"a": "}"}, {"a": "\\"a\\""}]')).toEqual([]);
    // After a nested object closes, the outer object's members go on.
    expect(repeatedMembers('{"o": {"k": 1}, "k": 2, "o": 3}')).toEqual([twice('"o"', 1)]);
  });

  it('says at most 20 of them, then how many more', () => {
    const text = `{${Array.from({length: 30}, () => '"k": 1').join(', ')}}`;
    const said = repeatedMembers(text);
    expect(said).toHaveLength(21);
    expect(said.at(-1)).toBe('and 9 more written twice');
    expect(repeatedMembers('{}')).toEqual([]);
    expect(repeatedMembers('"just a string"')).toEqual([]);
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
    // Every complaint in one round: a field of the wrong kind and another the form refuses.
    expect(refused({name: '', description: 5})).toEqual(['description: must be a string (in double quotes)', "name: can't be blank"]);
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
    // All in one round: a provider's complaint, a section's, and a member of the wrong kind in the other section.
    const all = refused((o) => ((providers(o)[0]!.label = ''), (o.default_client_mtu = 9000), (o.local_auth_enabled = 'yes')));
    expect(all[0]).toBe('local_auth_enabled: must be true or false');
    expect(all[1]).toBe("openid_connect_providers[0].label: can't be blank");
    expect(all[2]).toMatch(/^default_client_mtu: /);
    expect(all).toHaveLength(3);
  });
});

describe('the form document', () => {
  const specs: FieldSpec[] = [
    {key: 'name', label: 'Name', kind: 'text', maxLength: 5},
    {key: 'on', label: 'On', kind: 'toggle'},
    {key: 'pick', label: 'Pick', kind: 'choice', choices: [{value: 'a', label: 'A'}]},
    {key: 'doc', label: 'Doc', kind: 'text', multiline: true},
  ];

  it('shows values as the file has them: strings quoted, toggles true/false, a missing one as ""', () => {
    expect([shownValue(true), shownValue(false), shownValue('a b'), shownValue(''), shownValue(undefined)]).toEqual(['true', 'false', '"a b"', '""', '""']);
  });

  it("takes a field's value by its kind: a toggle a boolean, a choice one of its values, a text within its limit", () => {
    const [text, toggle, choice, multiline] = specs as [FieldSpec, FieldSpec, FieldSpec, FieldSpec];
    expect(fieldValue(toggle, true)).toEqual({value: true});
    expect(fieldValue(toggle, 'true')).toEqual({error: 'on: must be true or false'});
    expect(fieldValue(choice, 'a')).toEqual({value: 'a'});
    expect(fieldValue(choice, 'b')).toEqual({error: 'pick: must be one of "a"'});
    expect(fieldValue({...choice, choices: undefined}, 'a')).toEqual({error: 'pick: must be one of '});
    expect(fieldValue(choice, 1)).toEqual({error: 'pick: must be a string (in double quotes)'});
    // maxLength counts characters (code points): five emoji are five.
    expect(fieldValue(text, '😀😀😀😀😀')).toEqual({value: '😀😀😀😀😀'});
    expect(fieldValue(text, 'abcdef')).toEqual({error: 'name: should be at most 5 character(s)'});
    expect(fieldValue(text, 'ab\rc')).toEqual({error: 'name: must be one line'});
    expect(fieldValue(multiline, 'a\nb')).toEqual({value: 'a\nb'});
    // Without maxLength a field holds FIELD_UNITS_MAX UTF-16 units, a long one more.
    const plain: FieldSpec = {key: 'p', label: 'P', kind: 'text'};
    expect(fieldValue(plain, 'x'.repeat(FIELD_UNITS_MAX))).toEqual({value: 'x'.repeat(FIELD_UNITS_MAX)});
    expect(fieldValue(plain, 'x'.repeat(FIELD_UNITS_MAX + 1))).toEqual({error: `p: should be at most ${FIELD_UNITS_MAX} character(s)`});
    expect(fieldValue({...plain, long: true}, 'x'.repeat(FIELD_UNITS_MAX + 1))).toEqual({value: 'x'.repeat(FIELD_UNITS_MAX + 1)});
  });

  it('refuses a file that is not one object, and cuts a long unknown member name', () => {
    for (const edited of ['text', 3, null, [], true]) expect(checkFields(specs, {}, edited).ok, JSON.stringify(edited)).toBe(false);
    const long = 'k'.repeat(200);
    const r = checkFields(specs, {}, {[long]: 1, name: 'a', on: true, pick: 'a', doc: ''});
    expect(r).toEqual({ok: false, errors: [`"${'k'.repeat(79)}: not a field that can be edited here (the fields are name, on, pick, doc)`]});
  });

  it("validates only values of the right kinds: a value's type error is not followed by the form's complaint about it", () => {
    const blank: FieldSpec[] = [{key: 'name', label: 'Name', kind: 'text', validate: (v) => (String(v) === '' ? ["can't be blank"] : [])}];
    expect(checkFields(blank, {name: ''}, {name: 7})).toEqual({ok: false, errors: ['name: must be a string (in double quotes)']});
    expect(checkFields(blank, {name: 'x'}, {name: ''})).toEqual({ok: false, errors: ["name: can't be blank"]});
  });

  it("says a 422 in the file's words: base as it is, an alias's field with its note, through the form's mapping", () => {
    const err = new ApiError({
      kind: 'validation',
      method: 'PUT',
      path: '/v0/devices/x',
      message: '422',
      fieldErrors: {base: ['whole thing'], user_id: ['has already been taken'], description: ['too long']},
    });
    expect(serverErrorLines(err, {errorAliases: {user_id: {field: 'name', note: 'this user has one'}}})).toEqual([
      'whole thing',
      'name: has already been taken (this user has one)',
      'description: too long',
    ]);
    expect(serverErrorLines(err, {errorAliases: {user_id: {field: 'name'}}})).toContain('name: has already been taken');
    expect(serverErrorLines(err, {mapErrors: (e) => ({x: [`${Object.keys(e).length}`]})})).toEqual(['x: 3']);
  });

  it('writes every field (a missing toggle false, a missing text ""), lists the changed ones, and asks before sending', async () => {
    const sent: Values[] = [];
    const doc = formDocument({
      what: 'thing',
      stem: 's',
      notes: [],
      specs,
      initial: {name: 'a', pick: 'a'},
      question: 'Apply?',
      send: async (values) => {
        sent.push(values);
        return () => {};
      },
    });
    expect(doc.content).toEqual({name: 'a', on: false, pick: 'a', doc: ''});
    const checked = doc.check({name: 'b', on: true, pick: 'a', doc: ''});
    expect(checked.ok).toBe(true);
    const values = checked.ok ? checked.value : {};
    expect(doc.changes(values)).toEqual(['name: "a" → "b"', 'on: false → true']);
    const dialogs: Array<{title: string; lines: Array<{text: string}>; choices: Array<{run?: () => Promise<unknown>}>}> = [];
    const ctx = {openDialog: (d: (typeof dialogs)[number]) => dialogs.push(d)} as unknown as ConsoleContext;
    doc.propose(ctx, values, doc.changes(values), () => {});
    expect(dialogs[0]!.title).toBe('Apply?');
    expect(dialogs[0]!.lines.map((l) => l.text)).toEqual(['What will change:', '  name: "a" → "b"', '  on: false → true']);
    await dialogs[0]!.choices[0]!.run!();
    expect(sent).toEqual([values]);
  });
});

describe('checkConfiguration, member by member', () => {
  const c = configuration({
    local_auth_enabled: null as unknown as boolean,
    disable_vpn_on_oidc_error: null as unknown as boolean,
    saml_identity_providers: [
      {
        id: 'idp',
        label: 'IdP',
        base_url: null,
        metadata: '<xml/>',
        sign_requests: true,
        sign_metadata: true,
        signed_assertion_in_resp: true,
        signed_envelopes_in_resp: true,
        auto_create_users: false,
      },
    ],
  });
  const content = () => JSON.parse(JSON.stringify(configurationContent(c))) as Record<string, unknown>;
  const check = (change: (o: Record<string, unknown>) => void) => {
    const o = content();
    change(o);
    return checkConfiguration(c, o);
  };
  const errors = (change: (o: Record<string, unknown>) => void) => {
    const r = check(change);
    return r.ok ? [] : r.errors;
  };
  const saml = (o: Record<string, unknown>) => o.saml_identity_providers as unknown[];

  it('writes what the server left unset as its 0.7.36 default, and providers as their forms have them', () => {
    const o = content();
    expect([o.local_auth_enabled, o.allow_unprivileged_device_management, o.allow_unprivileged_device_configuration, o.disable_vpn_on_oidc_error]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(saml(o)).toEqual([
      {
        id: 'idp',
        label: 'IdP',
        base_url: '',
        metadata: '<xml/>',
        sign_requests: true,
        sign_metadata: true,
        signed_assertion_in_resp: true,
        signed_envelopes_in_resp: true,
        auto_create_users: false,
      },
    ]);
    expect(checkConfiguration(c, o)).toEqual({ok: true, value: {}});
  });

  it('refuses each member of the wrong kind, in its words', () => {
    expect(checkConfiguration(c, [])).toEqual({ok: false, errors: ['the file must hold one JSON object']});
    expect(checkConfiguration(c, null).ok).toBe(false);
    expect(errors((o) => (o.default_client_allowed_ips = ['0.0.0.0/0', 1]))).toEqual(['default_client_allowed_ips: must be a list of strings']);
    expect(errors((o) => (o.default_client_endpoint = 5))).toEqual(['default_client_endpoint: must be a string or null']);
    expect(errors((o) => (o.default_client_persistent_keepalive = 2.5))).toEqual([
      'default_client_persistent_keepalive: must be a whole number or null (the built-in default)',
    ]);
    expect(errors((o) => (o.disable_vpn_on_oidc_error = 'no'))).toEqual(['disable_vpn_on_oidc_error: must be true or false']);
    expect(errors((o) => (o.vpn_session_duration = '3600'))).toEqual(['vpn_session_duration: must be a whole number of seconds (0: never)']);
    expect(errors((o) => (o.saml_identity_providers = {}))).toEqual(['saml_identity_providers: must be a list ([] for none)']);
    expect(errors((o) => saml(o).push(null, 1, []))).toEqual([
      'saml_identity_providers[1]: must be an object',
      'saml_identity_providers[2]: must be an object',
      'saml_identity_providers[3]: must be an object',
    ]);
    expect(errors((o) => ((saml(o)[0] as Record<string, unknown>).colour = 'red'))).toEqual([
      'saml_identity_providers[0]: "colour" is not a field of a provider',
    ]);
    expect(errors((o) => ((saml(o)[0] as Record<string, unknown>).sign_requests = 'yes'))).toEqual([
      'saml_identity_providers[0].sign_requests: must be true or false',
    ]);
    expect(errors((o) => ((saml(o)[0] as Record<string, unknown>).metadata = ''))).toEqual(["saml_identity_providers[0].metadata: can't be blank"]);
  });

  it('an optional provider member may be null or left out; a required one may not', () => {
    expect(check((o) => ((saml(o)[0] as Record<string, unknown>).base_url = null))).toEqual({ok: true, value: {}});
    expect(check((o) => delete (saml(o)[0] as Record<string, unknown>).base_url)).toEqual({ok: true, value: {}});
    expect(errors((o) => ((saml(o)[0] as Record<string, unknown>).label = null))).toEqual([
      'saml_identity_providers[0].label: must be a string (in double quotes)',
    ]);
    const based = check((o) => ((saml(o)[0] as Record<string, unknown>).base_url = 'https://vpn.example.com/auth/saml'));
    expect(based.ok && based.value.saml_identity_providers?.[0]?.base_url).toBe('https://vpn.example.com/auth/saml');
  });

  it('null falls back to the built-in default; a list with other spacing is no change; a session of a preset or of its own seconds', () => {
    expect(check((o) => (o.default_client_mtu = null))).toEqual({ok: true, value: {default_client_mtu: null}});
    expect(check((o) => (o.default_client_endpoint = null))).toEqual({ok: true, value: {default_client_endpoint: null}});
    expect(check((o) => (o.default_client_dns = [' 1.1.1.1', '1.0.0.1 ']))).toEqual({ok: true, value: {}});
    expect(check((o) => (o.default_client_dns = ['1.0.0.1', '1.1.1.1']))).toEqual({ok: true, value: {default_client_dns: ['1.0.0.1', '1.1.1.1']}});
    expect(check((o) => (o.vpn_session_duration = 86400))).toEqual({ok: true, value: {vpn_session_duration: 86400}});
    expect(check((o) => (o.vpn_session_duration = 1234))).toEqual({ok: true, value: {vpn_session_duration: 1234}});
    expect(check((o) => (o.local_auth_enabled = false))).toEqual({ok: true, value: {local_auth_enabled: false}});
  });

  it("says a 422's paths and why the server's environment wins", () => {
    const err = new ApiError({
      kind: 'validation',
      method: 'PATCH',
      path: '/v0/configuration',
      message: '422',
      fieldErrors: {base: ['no'], default_client_mtu: ['cannot be changed; it is overridden by DEFAULT_CLIENT_MTU environment variable']},
    });
    const lines = configurationErrorLines(err);
    expect(lines[0]).toBe('no');
    expect(lines[1]).toMatch(
      /^default_client_mtu: cannot be changed; it is overridden by DEFAULT_CLIENT_MTU environment variable\. Set by the server's DEFAULT_CLIENT_MTU/,
    );
  });
});
