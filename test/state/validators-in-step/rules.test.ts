// The console's validators and the sandbox's routes give the same messages: rules (destination,
// ports). How the rows are checked, and their helpers: ./harness.ts.
import {validateDestination, validatePortPair} from '../../../src/state/data/validators.js';
import {compact, createAndRemove, type Rule, row, text, lenient, crash, checkInStep, useProbeSandbox} from './harness.js';

useProbeSandbox();

const rules = [
  {
    name: 'destination CIDR',
    route: 'POST /v0/rules',
    console: text('destination', validateDestination),
    sandbox: (v: string) =>
      createAndRemove('/v0/rules', {rule: {action: 'accept', destination: v.trim(), port_type: null, port_range: null, user_id: null}}, ['destination']),
    rows: [
      row(''),
      row('   '),
      row('1.1.1.1'),
      row('1.1.1.1/24'),
      row('10.0.0.0/8'),
      row('fd00::/64'),
      row('::1'),
      row('256.0.0.1'),
      row('10.0 0.0/24'),
      row('example.com'),
      row('1.1.1.1/'),
      row('1.1.1.1/x'),
      row('1.1.1.1/-1', crash('destination', 'is invalid', 'Postgres refuses a negative netmask')),
      row('10.0.0.0/33', crash('destination', 'is invalid', 'Postgres refuses the /33 netmask')),
      row('fd00::/129', crash('destination', 'is invalid', 'Postgres refuses the /129 netmask')),
      row('10.1', lenient('destination', 'is invalid', '"10.1" is 10.0.0.1')),
      row('11/32', lenient('destination', 'is invalid', '"11" is 0.0.0.11')),
    ],
  } satisfies Rule<string>,
  {
    name: 'port range syntax, bounds and port type pairing',
    route: 'POST /v0/rules',
    console: ([type, range]: [string, string]) => compact(validatePortPair(type || null, range)),
    // ruleBody: no port range without a port type
    sandbox: ([type, range]: [string, string]) =>
      createAndRemove(
        '/v0/rules',
        {
          rule: {
            action: 'drop',
            destination: '10.9.0.0/16',
            user_id: null,
            port_type: type === '' ? null : type,
            port_range: type === '' ? null : range.trim(),
          },
        },
        ['port_type', 'port_range'],
      ),
    rows: [
      row(['', '']),
      row(['tcp', '80']),
      row(['udp', '100-200']),
      row(['tcp', '100 - 200']),
      row(['tcp', ' 100 -200 ']),
      row(['tcp', '20-10']),
      row(['tcp', '1-65535']),
      row(['tcp', '65535']),
      row(['tcp', '65534']),
      row(['tcp', '1']),
      row(['tcp', '0']),
      row(['tcp', '0-10']),
      row(['udp', 'http']),
      row(['tcp', '']),
      row(['tcp', '   ']),
      row(['tcp', '[80,90]']),
      row(['tcp', '(80,90)']),
      row(['tcp', '[80, 90)']),
      row(['tcp', '(0,2)']),
      row(['tcp', '[1,65535)']),
      row(['tcp', '[1,65535]']),
      row(['tcp', '(90,80)']),
      row(['tcp', '-']),
      row(['tcp', '65534-65534']),
      // The console's form only offers a range after a type; the pair rule is still in step when a range is typed first.
      row(['', '10-20'], {
        why: 'the console never sends a range without a type (ruleBody sends null), so the server sees neither',
        console: {port_type: ["can't be blank"]},
        sandbox: {},
      }),
      row(['tcp', '-80'], lenient('port_range', 'bad format', 'a leading "-" is ignored')),
      row(['tcp', '80abc'], lenient('port_range', 'bad format', 'trailing junk is ignored')),
      row(['tcp', '80-90-100'], lenient('port_range', 'bad format', '"80-90-100" is 80 - 90')),
      row(['tcp', '+80'], lenient('port_range', 'bad format', 'Integer.parse takes the "+"')),
      row(['tcp', '80-'], lenient('port_range', 'bad format', 'an empty upper bound is dropped: "80-" is 80')),
    ],
  } satisfies Rule<[string, string]>,
] as unknown as Array<Rule<never>>;

checkInStep(rules, 2);
