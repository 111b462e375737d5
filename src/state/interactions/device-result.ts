// The new device's result screen: the client config with its private key, shown once; written to
// a file (0600, never overwritten without asking), copied, or shown as a QR code.
import type {Device} from '../../api/index.js';
import {configWarnings, defaultConfigFileName, renderClientConfig, writeConfigFile} from '../../wireguard/index.js';
import {topModal} from '../core/state.js';
import {type PromptModal, type ResultModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';

/**
 * A device's client config, made with the private key made here, shown as the result (file 0600,
 * QR, copy): for a new device and for a device given a new key. Returns why the config was
 * refused (the server sent a value that is not of its kind), or null.
 */
export function openNewConfig(c: ConsoleContext, device: Device, privateKey: string, ownerEmail: string, newKey = false): string | null {
  let config: string | null = null;
  let refused: string | null = null;
  try {
    config = renderClientConfig(device, {privateKey});
  } catch (err) {
    refused = err instanceof Error ? err.message : String(err);
  }
  c.openResult({
    deviceId: device.id,
    deviceName: device.name,
    ownerEmail,
    config,
    refused,
    warnings: config ? configWarnings(device) : [],
    view: 'config',
    saved: null,
    ...(newKey ? {newKey: true} : {}),
  });
  return refused;
}

export function resultAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'result') return;
  switch (action) {
    case 'writeFile': {
      if (m.config === null) return;
      const config = m.config;
      const path = defaultConfigFileName(m.deviceName);
      c.push({
        kind: 'prompt',
        label: 'Write to file',
        help: 'Enter writes (mode 0600, never overwrites without asking) · Esc cancels',
        value: path,
        cursor: [...path].length,
        accept: (value) => writeResult(c, m, config, value, false),
      });
      return;
    }
    case 'copyConfig':
      // Line by line, as the file would hold it: pasted into a terminal or an editor, it is the config.
      if (m.config !== null) c.copy('the client config', m.config, {lines: true});
      return;
    case 'qr':
      if (m.config !== null) c.replaceModal(m, {...m, view: m.view === 'qr' ? 'config' : 'qr'});
      return;
    case 'done':
      c.openDialog({
        title: m.newKey ? 'Leave the new key?' : 'Leave the new device?',
        lines: [
          {
            text:
              m.config === null
                ? m.newKey
                  ? 'The device has its new key on the server without a usable client config (u brings the old key back).'
                  : 'The device exists on the server without a usable client config.'
                : m.saved
                  ? `The private key is only in ${m.saved} now: it cannot be shown here again.`
                  : 'The private key is not stored anywhere and cannot be shown again.',
            tone: 'warning',
            bold: true,
          },
        ],
        choices: [
          {
            action: 'confirm',
            label: 'leave',
            run: () => {
              c.removeModal(m);
              // A new key was noted as a write when it was made, before `u` was given it to take back.
              if (m.newKey) c.message({tone: 'ok', text: `New key for device ${m.deviceName}: u brings the old key back`});
              else c.afterWrite(`Device ${m.deviceName} created`, {screen: 'devices', id: m.deviceId});
            },
          },
          {action: 'cancel', label: 'stay'},
        ],
      });
      return;
    default:
  }
}

export async function writeResult(c: ConsoleContext, result: ResultModal, config: string, path: string, overwrite: boolean): Promise<void> {
  const written = await writeConfigFile(path, config, {overwrite});
  const prompt = c.state.modals.find((x): x is PromptModal => x.kind === 'prompt') ?? null;
  if (written.ok) {
    if (prompt) c.removeModal(prompt);
    const current = c.current(result);
    if (current) c.replaceModal(current, {...current, saved: written.path});
    c.message({tone: 'ok', text: `Wrote ${written.path} (mode 0600)`});
  } else if (written.reason === 'exists') {
    c.message({tone: 'warning', text: written.message});
    c.openDialog({
      title: 'The file exists. Overwrite it?',
      lines: [{text: path}],
      choices: [
        {action: 'confirm', label: 'overwrite', run: () => writeResult(c, result, config, path, true)},
        {action: 'cancel', label: 'keep it'},
      ],
    });
  } else {
    c.message({tone: 'error', text: written.message});
  }
}
