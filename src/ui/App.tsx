// The console shell: header, tabs, body, info line and status bar around one controller
// (src/state/controller.ts). The console reads its own input (src/ui/keys.ts) and routes every event to it.
import React, {useEffect, useState, useSyncExternalStore} from 'react';
import {Box, useApp, useStdout} from 'ink';
import {topModal} from '../state/core/state.js';
import {type ConsoleClient, type ConsoleSettings} from '../state/core/context.js';
import {Controller, type ConsoleIO} from '../state/controller.js';
import type {FetchedData} from '../state/data/snapshot.js';
import {bodyFor} from './Body.js';
import {CommandBar, CommandInfo, commandErrorIsLong} from './CommandBar.js';
import {Header} from './Header.js';
import {helpCapacity, helpLines} from './HelpOverlay.js';
import {InputRouter, useTerminalInput} from './keys.js';
import {Text} from './SafeText.js';
import {StatusBar} from './StatusBar.js';
import {badges, Tabs} from './Tabs.js';
import {MIN_COLUMNS, MIN_ROWS, readSize, useTerminalSize} from './terminal.js';
import {displayWidth, truncate} from './text.js';
import {tooSmallLines} from './too-small.js';
import {color} from './theme.js';

export type AppSettings = ConsoleSettings;
export type {ConsoleClient};

export interface AppProps {
  client: ConsoleClient;
  settings: AppSettings;
  /** The console's own sequences (OSC 52) past the output guard; tests inject a recorder. */
  writeRaw?: (data: string) => void;
  /** Ctrl-Z: stop to the shell with the terminal restored, then call `repaint` on resume (the CLI's; absent in tests). */
  suspend?: (repaint: () => void) => void;
  /** `E`: hands the terminal to the admin's editor, then calls `repaint` (the CLI's; absent in tests). */
  editText?: (repaint: () => void) => ConsoleIO['editText'];
  /** The first poll's data when it was fetched before the UI loaded (cli.tsx, early.ts). */
  firstData?: Promise<FetchedData>;
  /**
   * `firstData` had already arrived (or failed) when the console started (bin.ts waits up to
   * 1.5 s for it): the console draws nothing until that poll is applied, a moment later, so that
   * its first frame shows the data rather than an empty screen drawn just before it, whose render
   * and Ink's throttle put the data frame back (docs/performance.md, "Start-up").
   */
  firstDataReady?: boolean;
  /** Re-reads a profile's tokenFile/tokenCommand after the server rejected the token. */
  reloadToken?: () => Promise<string | null>;
  /** `--activity-log`: where the events are appended. */
  activityLog?: ConsoleIO['activityLog'];
  /** `:profile`: the config file's other profiles (cli.tsx). */
  profiles?: ConsoleIO['profiles'];
  /** How long a lone ESC waits for the rest of a sequence (src/ui/keys.ts; tests: 0). */
  escapeDelayMs?: number;
}

export function App({
  client,
  settings,
  writeRaw,
  suspend,
  editText,
  firstData,
  firstDataReady,
  reloadToken,
  activityLog,
  profiles,
  escapeDelayMs,
}: AppProps): React.JSX.Element | null {
  const {exit} = useApp();
  // Ink's write() clears its frame and writes the last one again whole: the repaint after `fg`.
  const {stdout, write} = useStdout();
  const size = useTerminalSize();
  const [controller] = useState(
    () =>
      new Controller(
        client,
        settings,
        {
          writeRaw: (data) => (writeRaw ? writeRaw(data) : stdout.write(data)),
          exit,
          ...(suspend ? {suspend: () => suspend(() => write(''))} : {}),
          ...(editText ? {editText: editText(() => write(''))} : {}),
          ...(reloadToken ? {reloadToken} : {}),
          ...(activityLog ? {activityLog} : {}),
          ...(profiles ? {profiles} : {}),
        },
        firstData ?? null,
      ),
  );
  const [router] = useState(() => new InputRouter(controller));
  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);
  // The handlers know the size at once, not at the next frame: a key in the same read as a
  // shrink must already find the terminal too small.
  useEffect(() => {
    const onResize = () => {
      const now = readSize(stdout);
      controller.setViewport(now.columns, now.rows);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, controller]);
  const state = useSyncExternalStore(controller.store.subscribe, controller.store.get);
  useTerminalInput((events, read) => router.handle(events, read), escapeDelayMs);

  // Test hook for the crash path (test/e2e): the terminal must come back and the error be printed after it.
  if (process.env.FZ_CONSOLE_TEST_CRASH === 'render' && state.snapshot) throw new Error('injected render error (FZ_CONSOLE_TEST_CRASH=render)');
  controller.setViewport(size.columns, size.rows);
  if (size.columns < MIN_COLUMNS || size.rows < MIN_ROWS) {
    return (
      <Box flexDirection="column" width={size.columns} height={Math.max(1, size.rows - 1)}>
        {tooSmallLines(size.columns, size.rows, topModal(state) !== null).map((line) => (
          <Text key={line.text} wrap="truncate" {...(line.muted ? {color: color('muted')} : {})}>
            {line.text}
          </Text>
        ))}
      </Box>
    );
  }
  // Until the first poll that had already arrived is applied (or has failed): nothing yet.
  if (firstDataReady === true && state.snapshot === null && state.poll.failures === 0) return null;
  const width = size.columns;
  // A long status message, or a long error of the open command bar, takes a second line from the body.
  const long =
    state.command === null ? state.message !== null && displayWidth(state.message.text, width) > width - 12 : commandErrorIsLong(state.command, width);
  const bodyHeight = controller.bodyHeight() - (long ? 1 : 0);
  // The help's lines are laid out only while it is open: on every frame they cost a whole render.
  if (state.help.open) controller.measuredHelp(Math.max(0, helpLines(width - 1, state.help).length - helpCapacity(bodyHeight)));
  const {body, info, hints: bodyHints} = bodyFor(controller, state, width, bodyHeight);
  return (
    <Box flexDirection="column" width={width} height={size.rows - 1}>
      <Header label={settings.label} badges={badges(settings)} status={state.poll} width={width} now={state.clock} />
      <Tabs state={state} width={width} history={controller.history} onDrawn={controller.measuredTabs} />
      <Box height={bodyHeight} flexDirection="column" overflowY="hidden">
        {body}
      </Box>
      {state.command ? (
        <>
          <CommandInfo line={state.command} hints={controller.hints(state)} width={width} />
          <CommandBar line={state.command} width={width} />
        </>
      ) : (
        <>
          <Text wrap="truncate" color={color('accent')}>
            {truncate(info, width)}
          </Text>
          {/* A message longer than the line (a 500's explanation, a rejected token) gets a second line,
              taken from the bottom of the body, rather than being cut; the key hints come back when it goes. */}
          <StatusBar message={state.message} hints={long ? '' : (bodyHints ?? controller.hints(state))} width={width} lines={long ? 2 : 1} />
        </>
      )}
    </Box>
  );
}
