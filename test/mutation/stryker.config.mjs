// Mutation testing (`npm run mutate`, scripts/mutate.mjs; docs/architecture.md, "Testing layers"):
// small realistic bugs are put into the modules that guard the admin, one at a time, and the tests
// that hold each module are run; a mutant no test notices is a guard no test holds.
//
// The modules come in groups, each with its own tests, and Stryker runs once per group: a mutant of
// the display boundary is then checked by the boundary's tests, not by every suite that happens
// to draw text through it (each sandbox-starting suite would cost a second per mutant). A group
// with `gate: true` fails the run (and CI) when its tests kill under the threshold of
// scripts/mutate.mjs; a group is gated once its score is there, and stays gated.
export const GROUPS = [
  {
    name: 'untrusted text',
    gate: true,
    mutate: ['src/common/display-safe.ts', 'src/ui/output-guard.ts', 'src/common/graphemes.ts'],
    tests: ['test/common/display-safe.test.ts', 'test/ui/output-guard.test.ts', 'test/ui/table-text.test.tsx', 'test/common/graphemes.test.ts'],
  },
  {
    // Every server value checked before it becomes a line of a client config.
    name: 'client configs',
    gate: true,
    mutate: ['src/wireguard/validate.ts', 'src/wireguard/config.ts'],
    tests: ['test/wireguard/validate.test.ts', 'test/wireguard/config.test.ts'],
  },
  {
    // 0.7.36's field rules, the CSV onboarding plan, and the checks of a file edited with `E`.
    name: 'validators',
    gate: true,
    mutate: [
      'src/state/data/validators.ts',
      'src/state/screens/users/import-plan.ts',
      'src/state/interactions/external-edit-form.ts',
      'src/state/screens/configuration/editor.ts',
      'src/state/interactions/config-check.ts',
    ],
    tests: [
      'test/state/validators.test.ts',
      'test/state/validators-in-step/*.test.ts',
      'test/state/import.test.ts',
      'test/state/external-edit.test.ts',
      'test/state/config-check.test.ts',
    ],
  },
  {
    // The keymap table and the help made of it, availability and the read-only refusal, dispatch,
    // the line editor.
    name: 'keys',
    gate: true,
    mutate: [
      'src/state/input/keymap.ts',
      'src/state/input/help-sections.ts',
      'src/state/input/scopes.ts',
      'src/state/input/read-only.ts',
      'src/state/input/dispatch.ts',
      'src/state/input/textedit.ts',
      'src/state/input/limits.ts',
      'src/state/input/reads.ts',
      'src/state/input/key-help.ts',
      'src/state/interactions/modal-behaviour.ts',
      'src/state/interactions/form-text.ts',
      'src/state/lists/filter-text.ts',
    ],
    tests: [
      'test/state/dispatch.test.ts',
      'test/state/key-reads.test.ts',
      'test/state/input-limits.test.ts',
      'test/state/input-edges.test.ts',
      'test/state/key-help.test.ts',
      'test/state/store-writes.test.ts',
      'test/state/scopes.test.ts',
      'test/state/keys-and-pastes.test.ts',
      'test/state/textedit.test.ts',
      'test/state/help.test.ts',
      'test/state/command-bar.test.ts',
      'test/state/sort-letters.test.ts',
      'test/ui/keymap.test.ts',
    ],
  },
  {
    // Bounded concurrency, stopping, `d` on one item or on every marked one.
    name: 'bulk work',
    gate: true,
    mutate: [
      'src/state/interactions/jobs.ts',
      'src/state/lists/delete.ts',
      'src/state/screens/devices/replace-device.ts',
      'src/state/screens/devices/new-key-bulk.ts',
    ],
    tests: [
      'test/state/jobs.test.ts',
      'test/state/new-key.test.ts',
      'test/state/bulk-delete.test.ts',
      'test/state/dispatch.test.ts',
      'test/state/screen-actions.test.ts',
      'test/state/undo.test.ts',
    ],
  },
  {
    // API errors and their messages.
    name: 'api errors',
    gate: true,
    mutate: ['src/api/errors.ts', 'src/api/deadline.ts'],
    tests: ['test/api/errors.test.ts', 'test/api/errors-edges.test.ts', 'test/api/deadline.test.ts'],
  },
  {
    // The sandbox's authentication and the changesets of rules. Its request decoder
    // (src/sandbox/http/params.ts) is in no group yet: run with these suites (every request passes
    // through it) it took 40 minutes and scored 75%, its bounds held and its multipart and Accept
    // parts short of tests; its own group needs test/sandbox/params.test.ts without the timing
    // runs, which spawn processes that never see a mutant.
    name: 'sandbox',
    gate: true,
    mutate: ['src/sandbox/auth/*.ts', 'src/sandbox/changeset.ts', 'src/sandbox/resources/rules.ts'],
    tests: ['test/sandbox/jwt.test.ts', 'test/sandbox/api/*.test.ts', 'test/sandbox/validation.test.ts', 'test/sandbox/control.test.ts'],
  },
  {
    // Who can reach what: 0.7.36's firewall evaluated, :trace, :reach, the rules that never decide.
    name: 'access explainer',
    gate: true,
    mutate: ['src/state/access/*.ts'],
    tests: ['test/state/access.test.ts'],
  },
  {
    // The compact device store: digests that decide an item is unchanged, the stats-only path,
    // packed times, interning, and the rows over the columns (what the screens read).
    name: 'device store',
    gate: false,
    mutate: ['src/api/device-columns.ts', 'src/api/device-decoder.ts', 'src/api/packed-time.ts', 'src/state/data/device-rows.ts'],
    tests: [
      'test/api/device-columns.test.ts',
      'test/api/device-stats-path.test.ts',
      'test/api/device-cut-hint.test.ts',
      'test/api/packed-time.test.ts',
      'test/state/device-rows-objects.test.ts',
      'test/state/resources.test.ts',
    ],
  },
  {
    // The GET transport: the HTTP/1.1 response reader (framing, limits, refusals) and the
    // connections that lend their read buffers (pausing, copies, reuse, the retry once).
    name: 'http transport',
    gate: false,
    mutate: ['src/api/http1-response.ts', 'src/api/http-get.ts'],
    tests: [
      'test/api/http1-response.test.ts',
      'test/api/get-transport.test.ts',
      'test/api/tls.test.ts',
      'test/api/first-poll.test.ts',
      'test/api/long-body.test.ts',
    ],
  },
  {
    // Change detection (Activity).
    name: 'change detection',
    gate: true,
    mutate: ['src/state/tracking/snapshot-diff.ts', 'src/state/tracking/id-pairing.ts', 'src/state/tracking/device-replacements.ts'],
    tests: ['test/state/activity.test.ts', 'test/state/snapshot-diff/*.test.ts'],
  },
  {
    // The terminal's bytes into keys, pastes and mouse reports (any sequence, split anywhere, never
    // throws, never types a sequence it does not know), and which cell a click lands on. Not gated
    // until measured at the threshold: its tests are its own, so it runs apart from keys.
    name: 'input decoder',
    gate: false,
    mutate: ['src/state/input/decoder.ts', 'src/state/input/mouse.ts', 'src/state/input/mouse-hit.ts'],
    tests: ['test/state/decoder.test.ts', 'test/state/decoder-mouse.test.ts', 'test/state/mouse.test.ts'],
  },
  {
    // The host around the console: folders no other user can change, the compile cache and the
    // single executable's bundle in them, the file `E` hands to the admin's editor, and the audit log's whole-or-absent appends (77% when
    // first measured, 85.8% with the tests of the owner rule as another user sees it, the bundle
    // folder's recheck and the appends call by call). On Node 20, where this runs, there is no
    // compile cache to enable: half of compile-cache.ts survives here and is held on Node 22 and 24
    // by test/config/compile-cache.test.ts.
    name: 'host and audit log',
    gate: true,
    mutate: [
      'src/common/private-folder.ts',
      'src/config/compile-cache.ts',
      'src/config/bundle-folder.ts',
      'src/config/external-editor.ts',
      'src/config/job-control.ts',
      'src/state/tracking/activity-log.ts',
    ],
    tests: [
      'test/common/private-folder.test.ts',
      'test/config/compile-cache.test.ts',
      'test/config/bundle-folder.test.ts',
      'test/config/external-editor.test.ts',
      'test/config/job-control.test.ts',
      'test/state/activity-log.test.ts',
      'test/state/activity-log-whole.test.ts',
    ],
  },
];

// scripts/mutate.mjs makes the folders (fresh, its own); Stryker is not run without it.
const folder = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the mutation tests with npm run mutate`);
  return value;
};

const group = GROUPS.find((g) => g.name === process.env.FZ_MUTATE_GROUP);
const only = process.env.FZ_MUTATE_ONLY?.split(',').filter(Boolean);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Tests import sources by their .js names, which vitest's related-file search does not follow.
  vitest: {configFile: 'test/mutation/vitest.config.ts', related: false},
  mutate: only ?? group?.mutate ?? ['src/**/*.{ts,tsx}', '!src/**/*.d.ts'],
  // Message texts are checked word for word where they matter (validators-in-step, the dialogs);
  // a mutant per string literal would multiply the run without finding a missing guard.
  mutator: {excludedMutations: ['StringLiteral']},
  coverageAnalysis: 'perTest',
  // Two cores: one test process per core.
  concurrency: 2,
  timeoutMS: 20_000,
  // scripts/mutate.mjs adds the groups up and applies the threshold to the whole.
  thresholds: {high: 95, low: 90, break: null},
  reporters: ['clear-text', 'progress-append-only', 'json'],
  // Getters: scripts/mutate.mjs imports GROUPS from here before it has made the folders.
  get jsonReporter() {
    return {fileName: folder('FZ_MUTATE_REPORT')};
  },
  clearTextReporter: {allowColor: false, logTests: false, maxTestsToLog: 0},
  // Outside the checkout (the suite must leave it as it was), in scripts/mutate.mjs's own folder.
  get tempDirName() {
    return folder('FZ_MUTATE_SANDBOXES');
  },
  cleanTempDir: 'always',
  ignoreStatic: true,
  // scripts/mutate.mjs keeps the last result per group (test/mutation/incremental/).
  incremental: true,
  get incrementalFile() {
    return folder('FZ_MUTATE_INCREMENTAL');
  },
};
