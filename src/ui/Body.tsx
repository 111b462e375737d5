// What the body area shows for the state: the innermost modal, help, or the active screen; and the
// info line under it.
import React from 'react';
import {Box} from 'ink';
import {topModal} from '../state/core/state.js';
import {type ConsoleState} from '../state/core/state.js';
import type {Controller} from '../state/controller.js';
import {BODY_TOP_ROW} from '../state/core/drawn.js';
import {configurationLines} from '../state/screens/configuration/screen.js';
import {sortPickLines} from '../state/lists/sort-letters.js';
import {HelpOverlay} from './HelpOverlay.js';
import {modalView} from './modal-views.js';
import {Text} from './SafeText.js';
import {color} from './theme.js';
import {DetailView} from './views/DetailView.js';
import {ListScreen, listInfo, listWidthBeside, sideBySide} from './views/ListScreen.js';

/** Rows counted from the body's top, as terminal rows (what a click gives). */
const belowTop = (rows: {row: number; entry: string}[]) => rows.map((r) => ({row: BODY_TOP_ROW + r.row, entry: r.entry}));

export function bodyFor(controller: Controller, state: ConsoleState, width: number, height: number): {body: React.JSX.Element; info: string; hints?: string} {
  const top = topModal(state);
  const snapshot = state.snapshot;
  // The help opens over anything, a form included (F1).
  if (state.help.open) return {body: <HelpOverlay width={width} height={height} help={state.help} />, info: 'Help'};
  // The view a prompt belongs to is drawn under it (the result under its path prompt).
  if (top) return modalView(top, {below: state.modals[state.modals.length - 2] ?? null, state, controller, width, height});
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
    return {
      body: (
        <DetailView
          lines={lines}
          scroll={0}
          selectedEntry={state.configuration.entry}
          width={width}
          height={height}
          onEntries={(rows) => controller.measuredEntries({owner: 'configuration', rows: belowTop(rows)})}
        />
      ),
      info: 'Configuration',
    };
  }
  const list = controller.list(state.screen, state);
  if (!list) return {body: <Box height={height} />, info: ''};
  const marks = state.marks[state.screen];
  // With the detail beside it, the list has less width: which columns are hidden follows that.
  const beside = state.sidePanel && sideBySide(width) && list.selection.index >= 0;
  const sortHints = list.state.sortPicking && !list.state.detailId ? sortPickLines(list, beside ? listWidthBeside(width) : width).hints : null;
  return {
    body: (
      <ListScreen
        list={list}
        snapshot={snapshot}
        now={state.clock}
        width={width}
        height={height}
        marks={marks}
        changes={controller}
        side={state.sidePanel}
        onTable={(placement) => controller.measuredTable({...placement, firstRow: BODY_TOP_ROW + placement.firstRow})}
        onTableTop={controller.measuredTableTop}
        onEntries={(rows) => controller.measuredEntries({owner: list.spec.id, rows: belowTop(rows)})}
      />
    ),
    info: listInfo(list, snapshot, beside ? listWidthBeside(width) : width, marks.size, controller.settings, state.clock),
    // While `s` waits, the column titles the info line cannot hold go on the key-hints line.
    ...(sortHints ? {hints: sortHints} : {}),
  };
}
