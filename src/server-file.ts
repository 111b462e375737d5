// `fz-console export | plan | apply`: the server as a file (README, "Keeping the server in a
// file"; docs/server-as-a-file.md, "The commands"). No terminal UI: the connection is resolved as
// the console and the recorder resolve it (flags, environment, profile; token file or command; TLS
// options). Exit status as `terraform plan -detailed-exitcode`: 0 nothing to do (or done), 2 plan
// found changes, 1 on any error (a usage error included, so that 2 always means "changes").
import {mkdirSync, lstatSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {createInterface} from 'node:readline/promises';
import type {FirezoneClient} from './api/index.js';
import {parseCommandLine, UsageError, type ServerFileCommand} from './config/args.js';
import {serverFileHelp} from './config/cli-spec.js';
import {clientFor} from './config/connection-client.js';
import {ConfigError, resolveConnection} from './config/profile.js';
import {applyPlan, backupDocument} from './state/declarative/apply.js';
import {DocumentError, formatForPath, type ReadDocument, parseServerDocument, readDocumentFile, serialiseDocument} from './state/declarative/document.js';
import {exportDocument, readServerState} from './state/declarative/export.js';
import {checkFile, makePlan} from './state/declarative/plan.js';
import {planLines} from './state/declarative/plan-text.js';
import {expandPath, writeConfigFile} from './wireguard/file.js';
import {plainSafe} from './common/display-safe.js';

const say = (line: string) => process.stderr.write(`${plainSafe(line).text}\n`);

/** Where apply keeps what it deletes or replaces: $XDG_STATE_HOME/fz-console/backups, a folder of the user's own (0700). */
function backupFolder(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  const folder = join(base, 'fz-console', 'backups');
  mkdirSync(folder, {recursive: true, mode: 0o700});
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || (stat.mode & 0o077) !== 0 || (process.getuid && stat.uid !== process.getuid()))
    throw new ConfigError(`${folder} must be a folder of your own that nobody else can read (chmod 700 it)`);
  return folder;
}

async function connect(command: ServerFileCommand): Promise<{client: FirezoneClient; label: string; readOnly: boolean}> {
  const resolution = await resolveConnection(command.flags, process.env);
  if (resolution.kind !== 'connection') {
    throw new ConfigError(`${command.verb}: no server: give --url or FZ_URL with FZ_API_TOKEN/FZ_API_TOKEN_FILE, or --profile NAME`);
  }
  const {connection} = resolution;
  if (connection.insecure) say(`fz-console ${command.verb}: TLS not verified (--insecure)`);
  return {client: clientFor(connection), label: connection.label, readOnly: connection.readOnly};
}

async function runExport(command: ServerFileCommand, client: FirezoneClient): Promise<number> {
  const state = await readServerState(client);
  const format = command.format ?? (command.file ? formatForPath(command.file) : 'yaml');
  const text = serialiseDocument(exportDocument(state, {withSecrets: command.withSecrets}), format);
  if (command.file === null) {
    process.stdout.write(text);
    return 0;
  }
  // 0600 whatever it holds, written beside it and renamed over it: never through a link (src/wireguard/file.ts).
  const written = await writeConfigFile(command.file, text, {overwrite: true});
  if (!written.ok) throw new ConfigError(written.message);
  say(`fz-console export: wrote ${written.path}${command.withSecrets ? ' (with preshared keys and client secrets, mode 0600)' : ''}`);
  return 0;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({input: process.stdin, output: process.stderr});
  try {
    return /^(y|yes)$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** The file read and checked before the connection is even resolved: a bad file sends nothing. */
function readChecked(file: string): ReadDocument {
  const read = parseServerDocument(readDocumentFile(expandPath(file)), file);
  const problems = checkFile(read.document, read.lineOf);
  if (problems.length > 0) throw new DocumentError(file, problems);
  return read;
}

async function runPlanOrApply(command: ServerFileCommand, client: FirezoneClient, readOnly: boolean, read: ReadDocument): Promise<number> {
  const file = command.file!;
  const {document, lineOf} = read;
  if (command.verb === 'apply' && readOnly)
    throw new ConfigError('apply: this profile is read-only (--read-only or "readOnly" in the profile): nothing was sent');
  const state = await readServerState(client);
  const plan = makePlan(document, lineOf, state, {prune: command.prune, selfUserId: client.tokenUserId()});
  const text = planLines(plan, {file, replace: command.replace}).join('\n') + '\n';
  if (plan.problems.length > 0) {
    process.stderr.write(text);
    return 1;
  }
  if (command.verb === 'plan') {
    process.stdout.write(text);
    return plan.steps.length === 0 ? 0 : 2;
  }
  process.stderr.write(text);
  if (plan.steps.length === 0) return 0;
  const replaces = plan.steps.filter((s) => s.op === 'replace').length;
  if (replaces > 0 && !command.replace) {
    say(`apply: ${replaces} device${replaces === 1 ? '' : 's'} must be replaced (deleted and created again): run with --replace. Nothing was sent.`);
    return 1;
  }
  if (!command.yes) {
    if (!process.stdin.isTTY) {
      say('apply: not in a terminal: give --yes to apply without the question. Nothing was sent.');
      return 1;
    }
    if (!(await confirm('Apply these changes? [y/N] '))) {
      say('apply: nothing was sent.');
      return 1;
    }
  }
  const backup = backupDocument(plan, state);
  if (backup) {
    const path = join(backupFolder(process.env), `backup-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.yaml`);
    const written = await writeConfigFile(path, serialiseDocument(backup, 'yaml'), {overwrite: false});
    if (!written.ok) throw new ConfigError(`apply: cannot write the backup (${written.message}): nothing was sent`);
    say(`apply: what is deleted or replaced is saved in ${written.path} (0600, with its secrets): \`fz-console apply ${written.path}\` brings it back`);
  }
  const result = await applyPlan(plan, state, client, say);
  if (result.failed.length === 0) {
    say(`apply: done: ${result.applied.length} change${result.applied.length === 1 ? '' : 's'} applied.`);
    return 0;
  }
  say(
    `apply: stopped after a failure: ${result.applied.length} applied, ${result.failed.length} failed, ${result.halfReplaced.length ? `${result.halfReplaced.length} replaced only by half, ` : ''}${result.notStarted.length} not started.`,
  );
  for (const f of result.failed) say(`  failed: ${file}${f.step.line > 0 ? `:${f.step.line}` : ''}: ${f.step.op} ${f.step.label}: ${f.reason}`);
  for (const s of result.applied) say(`  applied: ${s.op} ${s.label}`);
  for (const s of result.halfReplaced) say(`  deleted, not created again: ${s.label} (the backup file holds it, preshared key included)`);
  for (const s of result.notStarted) say(`  not started: ${s.op} ${s.label}`);
  say(`apply: run \`fz-console apply ${file}\` again to finish: it plans only what is left.`);
  return 1;
}

/** The executable's `export`, `plan` and `apply`. */
export async function serverFileMain(argv: string[]): Promise<number> {
  let client: FirezoneClient | null = null;
  try {
    const command = parseCommandLine(argv);
    if (command.kind === 'server-file-help') {
      process.stdout.write(serverFileHelp(command.verb));
      return 0;
    }
    if (command.kind !== 'server-file') throw new UsageError('expected fz-console export|plan|apply');
    const read = command.verb === 'export' ? null : readChecked(command.file!);
    const connected = await connect(command);
    client = connected.client;
    if (read === null) return await runExport(command, client);
    return await runPlanOrApply(command, client, connected.readOnly, read);
  } catch (err) {
    if (err instanceof DocumentError) for (const line of err.message.split('\n')) say(line);
    else if (err instanceof UsageError || err instanceof ConfigError) say(`fz-console: ${(err as Error).message}`);
    else say(`fz-console: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await client?.close();
  }
}
