// How each kind of modal is drawn in the body, and what the info line under it says: one record,
// matching the modal registry (src/state/interactions/modal-behaviour.ts), so a kind without a
// view is a type error.
import React from 'react';
import type {Modal, ReportModal} from '../state/core/modals.js';
import type {ConsoleState} from '../state/core/state.js';
import type {Controller} from '../state/controller.js';
import {BODY_TOP_ROW} from '../state/core/drawn.js';
import {isDirty} from '../state/interactions/form.js';
import {FormView} from './FormView.js';
import {DeviceResult} from './views/DeviceResult.js';
import {Dialog} from './views/Dialog.js';
import {Picker} from './views/Picker.js';
import {Prompt} from './views/Prompt.js';
import {Report} from './views/Report.js';
import {RawView} from './views/RawView.js';

/** What a view is given: its modal, the one under it, and the room. */
export interface ModalViewProps<M extends Modal> {
  modal: M;
  below: Modal | null;
  state: ConsoleState;
  controller: Controller;
  width: number;
  height: number;
}

export interface Drawn {
  body: React.JSX.Element;
  info: string;
}

const REPORT_PHASES: Record<ReportModal['phase'], string> = {preview: 'Preview', running: 'Running', stopping: 'Stopping', finished: 'Done'};

export const MODAL_VIEWS: {readonly [K in Modal['kind']]: (props: ModalViewProps<Extract<Modal, {kind: K}>>) => Drawn} = {
  dialog: ({modal, width}) => ({body: <Dialog dialog={modal} width={width} />, info: modal.busy ?? ''}),
  report: ({modal, controller, width, height}) => ({
    body: <Report report={modal} width={width} height={height} onShown={(n, lastPage) => controller.measuredReport(n, lastPage)} />,
    info: REPORT_PHASES[modal.phase],
  }),
  picker: ({modal, state, width, height}) => ({
    body: <Picker picker={modal} users={state.snapshot?.users ?? []} width={width} height={height} />,
    info: 'Pick a user',
  }),
  result: ({modal, width, height}) => ({
    body: <DeviceResult result={modal} prompt={null} width={width} height={height} />,
    info: modal.newKey ? 'New key' : 'New device',
  }),
  // A prompt of the device result (where to write the config) is drawn under the result it belongs to.
  prompt: ({modal, below, width, height}) =>
    below?.kind === 'result'
      ? {body: <DeviceResult result={below} prompt={modal} width={width} height={height} />, info: below.newKey ? 'New key' : 'New device'}
      : {body: <Prompt prompt={modal} width={width} />, info: modal.label},
  raw: ({modal, controller, width, height}) => ({
    body: <RawView raw={modal} width={width} height={height} onShown={(n, lastPage) => controller.measuredReport(n, lastPage)} />,
    info: modal.reveal ? 'As the server sent it (secrets shown)' : 'As the server sent it',
  }),
  form: ({modal, controller, width, height}) => ({
    body: (
      <FormView
        title={modal.title}
        form={modal.form}
        notes={modal.notes}
        width={width}
        height={height}
        onDrawn={(rows) => controller.measuredForm({modal: modal.key, rows: rows.map((r) => ({...r, row: BODY_TOP_ROW + r.row}))})}
      />
    ),
    info: modal.form.submitting ? 'Saving… (the server has not answered yet)' : isDirty(modal.form) ? 'unsaved changes' : '',
  }),
};

/** The view of the innermost modal. */
export function modalView(modal: Modal, props: Omit<ModalViewProps<Modal>, 'modal'>): Drawn {
  // Keyed by kind, so the entry for modal.kind takes this modal; TypeScript cannot correlate the two on its own.
  const view = MODAL_VIEWS[modal.kind] as (props: ModalViewProps<Modal>) => Drawn;
  return view({...props, modal});
}
