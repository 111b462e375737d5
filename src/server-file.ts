// `fz-console export | plan | apply`: the server as a file (README, "Keeping the server in a
// file"; docs/server-as-a-file.md, "The commands"). No terminal UI: the connection is resolved as
// the console and the recorder resolve it (flags, environment, profile; token file or command; TLS
// options). Exit status as `terraform plan -detailed-exitcode`: 0 nothing to do (or done), 2 plan
// found changes, 1 on any error (a usage error included, so that 2 always means "changes").
import {createInterface} from 'node:readline/promises';
import type {FirezoneClient} from './api/index.js';
import {parseCommandLine, UsageError, type ServerFileCommand} from './config/args.js';
import {serverFileHelp} from './config/cli-spec.js';
import {clientFor} from './config/connection-client.js';
import {ConfigError, resolveConnection} from './config/profile.js';
import {applyPlan} from './state/declarative/apply.js';
import {writeBackup} from './state/declarative/backup.js';
import {DocumentError, formatForPath, type ReadDocument, parseServerDocument, readDocumentFile, serialiseDocument} from './state/declarative/document.js';
import {exportDocument, readServerState} from './state/declarative/export.js';
import {checkFile, makePlan} from './state/declarative/plan.js';
import {applySummary, planLines} from './state/declarative/plan-text.js';
import {expandPath, writeConfigFile} from './wireguard/file.js';
import {plainSafe} from './common/display-safe.js';

const say = (line: string) => process.stderr.write(`${plainSafe(line).text}\n`);

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
  let backup: string | null;
  try {
    backup = await writeBackup(plan, state, process.env);
  } catch (err) {
    throw new ConfigError(`apply: ${(err as Error).message}: nothing was sent`);
  }
  if (backup) say(`apply: what is deleted or replaced is saved in ${backup} (0600, with its secrets): \`fz-console apply ${backup}\` brings it back`);
  const result = await applyPlan(plan, state, client, say);
  for (const line of applySummary(result, file)) say(line);
  return result.applied.length === plan.steps.length ? 0 : 1;
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
