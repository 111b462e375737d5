// `x` and `X`: the list as shown (filtered, sorted) to a CSV or JSON file, 0600, never overwritten
// without asking; `X` includes the preshared keys after asking.
import {writeConfigFile} from '../../wireguard/index.js';
import type {ListScreenId} from '../core/state.js';
import type {PromptModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import {defaultExportName, formatForPath, serialise} from './export.js';
import type {ExportRecord} from '../screens/display.js';
import {plural} from '../data/format.js';
import {quotedFilter} from './filter-query.js';

// ---- export ------------------------------------------------------------------------------------

export function exportList(c: ConsoleContext, includeSecrets: boolean): void {
  const list = c.activeList();
  if (!list) return;
  const screen: ListScreenId = list.spec.id;
  if (list.view.rows.length === 0) {
    c.message({tone: 'info', text: `Nothing to export: no ${list.spec.noun}s are shown`});
    return;
  }
  const rows = list.view.rows;
  const n = plural(rows.length, list.spec.noun);
  const secrets = list.spec.export.secrets;
  const records = () => list.spec.export.records(rows, c.snapshot, includeSecrets);
  const ask = () => {
    const value = defaultExportName(screen, Date.now()).replace(/\.csv$/, includeSecrets ? '-with-secrets.csv' : '.csv');
    c.push({
      kind: 'prompt',
      label: 'Export to file',
      value,
      cursor: [...value].length,
      lines: [
        {text: `Export the ${n} shown${list.state.filter ? ` (filter ${quotedFilter(list.state.filter)})` : ''}, in the order shown.`, bold: true},
        // Only a list whose records can hold secrets (the devices' preshared keys) says so; X exports them.
        ...(secrets
          ? [
              {
                text: includeSecrets ? `Including ${secrets.what}: keep the file safe.` : `No secrets (${secrets.what} are left out; X includes them).`,
                tone: includeSecrets ? ('danger' as const) : ('muted' as const),
              },
            ]
          : []),
      ],
      help: 'Enter writes (.json → JSON, else CSV; mode 0600; never overwrites without asking) · Esc cancels',
      accept: (path) =>
        writeExport(
          c,
          {noun: list.spec.noun, count: rows.length, records, secrets: secrets && includeSecrets ? `WITH ${secrets.what}` : secrets ? 'no secrets' : null},
          path,
          false,
        ),
    });
  };
  if (!includeSecrets) {
    ask();
    return;
  }
  c.openDialog({
    title: `Export ${n} with their ${secrets?.what ?? 'secrets'}?`,
    lines: [{text: secrets?.risk ?? 'The file will hold secrets.', tone: 'danger', bold: true}],
    choices: [
      {action: 'confirm', label: 'include secrets', run: ask},
      {action: 'cancel', label: 'no'},
    ],
  });
}

/** What is written: the records, and what the message says of it. */
interface ExportJob {
  noun: string;
  count: number;
  records: () => ExportRecord[];
  /** "WITH preshared keys", "no secrets", or null where the records hold none. */
  secrets: string | null;
}

async function writeExport(c: ConsoleContext, job: ExportJob, path: string, overwrite: boolean): Promise<void> {
  const format = formatForPath(path);
  const text = serialise(job.records(), format);
  const written = await writeConfigFile(path, text, {overwrite});
  const prompt = c.state.modals.find((m): m is PromptModal => m.kind === 'prompt' && m.label === 'Export to file');
  if (written.ok) {
    if (prompt) c.removeModal(prompt);
    c.message({
      tone: 'ok',
      text: `Exported ${plural(job.count, job.noun)} to ${written.path} (${format.toUpperCase()}${job.secrets ? `, ${job.secrets}` : ''}, mode 0600)`,
    });
  } else if (written.reason === 'exists') {
    c.openDialog({
      title: 'The file exists. Overwrite it?',
      lines: [{text: written.message}],
      choices: [
        {action: 'confirm', label: 'overwrite', run: () => writeExport(c, job, path, true)},
        {action: 'cancel', label: 'keep it'},
      ],
    });
  } else {
    c.message({tone: 'error', text: written.message});
  }
}
