import {describe, expect, it} from 'vitest';
import {createForm, setValue, validateForm} from '../../src/state/interactions/form.js';
import {deviceCreateBody, deviceFormInitial, deviceFormSpecs} from '../../src/state/screens/devices/forms.js';
import {ruleBody, ruleFormInitial, ruleFormSpecs} from '../../src/state/screens/rules/forms.js';
import {userCreateBody, userFormSpecs, userUpdateBody} from '../../src/state/screens/users/forms.js';
import {user} from '../fixtures/data.js';

describe('user forms', () => {
  it('fields in the design order; checks with the server messages', () => {
    const specs = userFormSpecs('create');
    expect(specs.map((s) => s.key)).toEqual(['email', 'role', 'password', 'password_confirmation']);
    let f = createForm(specs, {role: 'unprivileged'});
    f = setValue(setValue(f, 'email', 'test@test.com'), 'password', 'test1234');
    f = validateForm(f);
    expect(f.errors).toEqual({password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]});
  });
  it('bodies: no password keys without a password; edit sends only changes', () => {
    expect(userCreateBody({email: ' a@b ', role: 'admin', password: '', password_confirmation: ''})).toEqual({email: 'a@b', role: 'admin'});
    expect(userUpdateBody({email: 'ann@example.com', password: '', password_confirmation: ''}, user())).toEqual({});
    expect(userUpdateBody({email: 'new@example.com', password: 'correct horse battery', password_confirmation: 'correct horse battery'}, user())).toEqual({
      email: 'new@example.com',
      password: 'correct horse battery',
      password_confirmation: 'correct horse battery',
    });
  });
});

describe('device form', () => {
  it('the paired inputs are enabled only when the default toggle is off', () => {
    const specs = deviceFormSpecs(null, false);
    expect(specs.map((s) => s.key)).toEqual([
      'name',
      'description',
      'use_default_allowed_ips',
      'allowed_ips',
      'use_default_dns',
      'dns',
      'use_default_endpoint',
      'endpoint',
      'use_default_mtu',
      'mtu',
      'use_default_persistent_keepalive',
      'persistent_keepalive',
      'ipv4',
      'ipv6',
    ]);
    let f = createForm(specs, deviceFormInitial('quiet-otter', null));
    f = validateForm(setValue(f, 'mtu', '100'));
    expect(f.errors.mtu).toBeUndefined();
    f = validateForm(setValue(f, 'use_default_mtu', false));
    expect(f.errors.mtu).toEqual(['must be greater than or equal to 576']);
    f = validateForm(setValue(f, 'use_default_endpoint', false));
    expect(f.errors.endpoint).toEqual(["can't be blank"]);
  });
  it('builds the create body: comma lists as arrays, numbers as numbers, blanks omitted', () => {
    const values = {
      ...deviceFormInitial('quiet-otter', 'u-1'),
      description: ' laptop ',
      use_default_dns: false,
      dns: '9.9.9.9, 1.1.1.1',
      use_default_mtu: false,
      mtu: '1400',
      ipv4: '10.3.2.9',
    };
    expect(deviceCreateBody(values, 'u-1', 'PUB')).toEqual({
      user_id: 'u-1',
      public_key: 'PUB',
      name: 'quiet-otter',
      description: 'laptop',
      use_default_allowed_ips: true,
      use_default_dns: false,
      dns: ['9.9.9.9', '1.1.1.1'],
      use_default_endpoint: true,
      use_default_mtu: false,
      mtu: 1400,
      use_default_persistent_keepalive: true,
      ipv4: '10.3.2.9',
    });
  });
});

describe('rule form', () => {
  it('port range is enabled only with a port type; both-or-neither checked', () => {
    const specs = ruleFormSpecs();
    expect(specs.map((s) => s.key)).toEqual(['action', 'destination', 'port_type', 'port_range', 'user']);
    let f = createForm(specs, ruleFormInitial(null));
    f = validateForm(setValue(setValue(f, 'destination', '10.0.0.0/8'), 'port_type', 'tcp'));
    expect(f.errors).toEqual({port_range: ["can't be blank"]});
    f = validateForm(setValue(f, 'port_range', '20-10'));
    expect(f.errors).toEqual({port_range: ['lower value cannot be higher than upper value']});
  });
  it('body: null ports and user when not set', () => {
    expect(ruleBody({action: 'drop', destination: ' 10.0.0.0/8 ', port_type: '', port_range: '80', user: ''})).toEqual({
      action: 'drop',
      destination: '10.0.0.0/8',
      port_type: null,
      port_range: null,
      user_id: null,
    });
    expect(ruleBody({action: 'accept', destination: '10.0.0.1', port_type: 'udp', port_range: '53', user: 'u-1'})).toEqual({
      action: 'accept',
      destination: '10.0.0.1',
      port_type: 'udp',
      port_range: '53',
      user_id: 'u-1',
    });
  });
});
