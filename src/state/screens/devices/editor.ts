// `E` on a device: its name and description in the admin's editor, sent as the edit form sends them
// (docs/terminal-notes.md, "Handing the terminal to an editor").
import type {ConsoleContext} from '../../core/context.js';
import type {DeviceRow} from '../../data/snapshot.js';
import {formDocument} from '../../interactions/external-edit-form.js';
import type {EditorDocument} from '../../interactions/external-edit.js';
import type {Values} from '../../interactions/form.js';
import {DEVICE_EDIT_NOTE, DEVICE_ERROR_ALIASES, deviceEditInitial, deviceEditSpecs, deviceUpdateBody} from './forms.js';

export function deviceEditorDocument(ctx: ConsoleContext, row: DeviceRow): EditorDocument<Values> {
  return formDocument({
    what: `device ${row.name} of ${row.ownerEmail}`,
    stem: `device-${row.name}`,
    notes: [DEVICE_EDIT_NOTE],
    specs: deviceEditSpecs(),
    initial: deviceEditInitial(row.toDevice()),
    question: `Apply these changes to device ${row.name} of ${row.ownerEmail}?`,
    errorAliases: DEVICE_ERROR_ALIASES,
    current: async () => deviceEditInitial((await ctx.client.getDevice(row.id)).data),
    send: async (values, initial) => {
      const body = deviceUpdateBody(values, initial);
      if (body.name === undefined && body.description === undefined) return () => ctx.message({tone: 'info', text: 'Nothing changed'});
      const saved = (await ctx.client.updateDevice(row.id, body)).data;
      // By the name the server answered with: another admin may have renamed it meanwhile.
      return () => ctx.afterWrite(`Device updated: ${saved.name}`);
    },
  });
}
