// What the body area shows for the state: the innermost modal, help, or the active screen; and the
// info line under it.
import React from 'react';
import {Box} from 'ink';
import {topModal} from '../state/core/state.js';
import {type PromptModal, type ReportModal} from '../state/core/modals.js';
import {type ConsoleState} from '../state/core/state.js';
import type {Controller} from '../state/controller.js';
import {isDirty} from '../state/interactions/form.js';
import {configurationLines} from '../state/screens/configuration/screen.js';
import {FormView} from './FormView.js';
import {HelpOverlay} from './HelpOverlay.js';
import {Text} from './SafeText.js';
import {color} from './theme.js';
import {DetailView} from './views/DetailView.js';
import {DeviceResult} from './views/DeviceResult.js';
import {Dialog} from './views/Dialog.js';
import {ListScreen, listInfo, listWidthBeside, sideBySide} from './views/ListScreen.js';
import {Picker} from './views/Picker.js';
import {Prompt} from './views/Prompt.js';
import {Report} from './views/Report.js';

function reportInfo(report: ReportModal): string {
  switch (report.phase) {
    case 'preview':
      return 'Preview';
    case 'running':
      return 'Running';
    case 'stopping':
      return 'Stopping';
    case 'finished':
      return 'Done';
  }
}

export function bodyFor(controller: Controller, state: ConsoleState, width: number, height: number): {body: React.JSX.Element; info: string} {
  const top = topModal(state);
  const snapshot = state.snapshot;
  // The view a prompt or dialog belongs to is drawn under it (the result under its path prompt).
  const below = state.modals[state.modals.length - 2] ?? null;
  // The help opens over anything, a form included (F1).
  if (state.help.open) return {body: <HelpOverlay width={width} height={height} help={state.help} />, info: 'Help'};
  if (top?.kind === 'dialog') return {body: <Dialog dialog={top} width={width} />, info: top.busy ?? ''};
  if (top?.kind === 'report')
    return {
      body: <Report report={top} width={width} height={height} onShown={(n, lastPage) => controller.measuredReport(n, lastPage)} />,
      info: reportInfo(top),
    };
  if (top?.kind === 'picker') return {body: <Picker picker={top} users={snapshot?.users ?? []} width={width} height={height} />, info: 'Pick a user'};
  const result = top?.kind === 'result' ? top : top?.kind === 'prompt' && below?.kind === 'result' ? below : null;
  if (result) {
    const prompt = top?.kind === 'prompt' ? (top as PromptModal) : null;
    return {body: <DeviceResult result={result} prompt={prompt} width={width} height={height} />, info: 'New device'};
  }
  if (top?.kind === 'prompt') return {body: <Prompt prompt={top} width={width} />, info: top.label};
  if (top?.kind === 'form') {
    return {
      body: <FormView title={top.title} form={top.form} notes={top.notes} width={width} height={height} />,
      info: top.form.submitting ? 'Saving… (the server has not answered yet)' : isDirty(top.form) ? 'unsaved changes' : '',
    };
  }
  if (!snapshot) {
    return {
      body: (
        <Box height={height}>
          <Text color={color('muted')}>{state.poll.failures > 0 ? 'Cannot load data yet; retrying by itself (see the status bar).' : 'Loading…'}</Text>
        </Box>
      ),
      info: '',
    };
  }
  if (state.screen === 'configuration') {
    const lines = configurationLines(snapshot.configuration, state.clock, state.configuration.reveal, snapshot.hidden.has('configuration'));
    return {body: <DetailView lines={lines} scroll={0} selectedEntry={state.configuration.entry} width={width} height={height} />, info: 'Configuration'};
  }
  const list = controller.list(state.screen, state);
  if (!list) return {body: <Box height={height} />, info: ''};
  const marks = state.marks[state.screen];
  // With the detail beside it, the list has less width: which columns are hidden follows that.
  const beside = state.sidePanel && sideBySide(width) && list.selection.index >= 0;
  return {
    body: (
      <ListScreen list={list} snapshot={snapshot} now={state.clock} width={width} height={height} marks={marks} changes={controller} side={state.sidePanel} />
    ),
    info: listInfo(list, snapshot, beside ? listWidthBeside(width) : width, marks.size, controller.settings, state.clock),
  };
}
