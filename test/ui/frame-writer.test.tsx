// The frame writer (src/ui/frame-writer.ts) between real Ink 6.8 and a virtual terminal
// (test/helpers/vt.ts): after any sequence of frames, resizes and repaints, the terminal shows,
// cell by cell, what a fresh terminal shows after the same frame drawn whole (Ink's
// renderToString of the same element). Also the fact behind src/ui/render-options.ts: Ink 6.8's
// own incremental mode leaves stale lines.
import {EventEmitter} from 'node:events';
import chalk from 'chalk';
import fc from 'fast-check';
import stringWidth from 'string-width';
import React from 'react';
import {Box, render, renderToString, Text, useStdout} from 'ink';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {FrameWriter, frameWriterStream} from '../../src/ui/frame-writer.js';
import {FRAME_OPTIONS} from '../../src/ui/render-options.js';
import {VirtualTerminal} from '../helpers/vt.js';

const ESC = '\x1b';

// Under vitest stdout is no terminal and chalk would draw no colour at all.
let level: typeof chalk.level;
beforeAll(() => {
  level = chalk.level;
  chalk.level = 3;
});
afterAll(() => {
  chalk.level = level;
});

class FakeStdout extends EventEmitter {
  isTTY = true;
  written = '';
  constructor(
    public columns: number,
    public rows: number,
    private readonly sink: (s: string) => void,
  ) {
    super();
  }
  write = (chunk: string): boolean => {
    this.written += chunk;
    this.sink(chunk);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  setRawMode(): void {}
  setEncoding(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

interface Line {
  text: string;
  color?: 'red' | 'green' | 'cyan' | 'gray' | undefined;
  bold?: boolean;
  inverse?: boolean;
}

let repaint: (() => void) | null = null;

const segmenter = new Intl.Segmenter();

/** Cut to `columns` cells, as the console fits its lines itself (Ink's truncation can overshoot by a cell around wide characters). */
function fit(text: string, columns: number): string {
  let out = '';
  let width = 0;
  for (const {segment} of segmenter.segment(text)) {
    width += stringWidth(segment);
    if (width > columns) break;
    out += segment;
  }
  return out;
}

/** Like the console's root: a column as tall as the terminal less one row, one Text per line. */
function Frame({lines, rows, columns}: {lines: Line[]; rows: number; columns: number}): React.JSX.Element {
  const {write} = useStdout();
  repaint = () => write('');
  return (
    <Box flexDirection="column" height={rows - 1}>
      {/* As the console does, never more lines than fit (Yoga would squeeze them over each other). */}
      {lines.slice(0, rows - 1).map((l, i) => (
        <Text key={i} wrap="truncate" color={l.color} bold={l.bold} inverse={l.inverse}>
          {fit(l.text, columns)}
        </Text>
      ))}
    </Box>
  );
}

async function until(check: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the screen to match:\n${what()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function reference(element: React.JSX.Element, columns: number, rows: number): VirtualTerminal {
  const vt = new VirtualTerminal(columns, rows);
  vt.write(renderToString(element, {columns}).replace(/\n/g, '\r\n'));
  return vt;
}

const WORDS = ['device', 'laptop', '10.3.2.1', '●', '漢字', '😀', 'é', 'online', '—', ' '];
const line = fc.record({
  text: fc.array(fc.constantFrom(...WORDS), {maxLength: 12}).map((w) => w.join(' ')),
  color: fc.constantFrom(undefined, 'red', 'green', 'cyan', 'gray'),
  bold: fc.boolean(),
  inverse: fc.boolean(),
});
type Step =
  | {kind: 'frame'; lines: Line[]}
  | {kind: 'edit'; at: number; line: Line}
  | {kind: 'resize'; columns: number; rows: number; clears: boolean}
  | {kind: 'repaint'};
const step: fc.Arbitrary<Step> = fc.oneof(
  {weight: 2, arbitrary: fc.record({kind: fc.constant('frame' as const), lines: fc.array(line, {maxLength: 14})})},
  {weight: 5, arbitrary: fc.record({kind: fc.constant('edit' as const), at: fc.nat(13), line})},
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resize' as const),
      columns: fc.integer({min: 12, max: 40}),
      rows: fc.integer({min: 4, max: 16}),
      clears: fc.boolean(),
    }),
  },
  {weight: 1, arbitrary: fc.record({kind: fc.constant('repaint' as const)})},
);

describe('the frame writer between Ink and the terminal', () => {
  it('leaves what a fresh full draw of the last frame shows, through frames, resizes and repaints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, {maxLength: 14}), fc.array(step, {minLength: 1, maxLength: 12}), async (first, steps) => {
        let vt = new VirtualTerminal(30, 12);
        vt.write(`${ESC}[?1049h${ESC}[H`);
        const stdout = new FakeStdout(30, 12, (s) => vt.write(s));
        const writer = new FrameWriter(() => ({columns: stdout.columns, rows: stdout.rows}));
        let lines: Line[] = first;
        const element = () => <Frame lines={lines} rows={stdout.rows} columns={stdout.columns} />;
        const instance = render(element(), {
          stdout: frameWriterStream(stdout as unknown as NodeJS.WriteStream, writer),
          stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
          debug: false,
          patchConsole: false,
          exitOnCtrlC: false,
          ...FRAME_OPTIONS,
        });
        try {
          for (const s of steps) {
            if (s.kind === 'frame') lines = s.lines;
            else if (s.kind === 'edit') lines = lines.map((l, i) => (i === s.at % Math.max(lines.length, 1) ? s.line : l));
            else if (s.kind === 'resize') {
              const old = vt;
              vt = old.resized(s.columns, s.rows, s.clears);
              stdout.columns = s.columns;
              stdout.rows = s.rows;
              stdout.emit('resize');
            } else repaint?.();
            instance.rerender(element());
            const want = reference(element(), stdout.columns, stdout.rows);
            await until(
              () => JSON.stringify(vt.dump()) === JSON.stringify(want.dump()),
              () => `${vt.text().join('\n')}\n---- want ----\n${want.text().join('\n')}`,
            );
            expect(vt.unknown).toEqual([]);
          }
        } finally {
          instance.unmount();
        }
      }),
      // A fixed seed, so CI is repeatable; FRAMES_PROPERTY_SEED=random explores new ones (seed
      // -584038883 found the resize the test below holds).
      {numRuns: 40, endOnFailure: true, ...(process.env.FRAMES_PROPERTY_SEED === 'random' ? {} : {seed: Number(process.env.FRAMES_PROPERTY_SEED ?? 20261126)})},
    );
  });

  it('sends a cursor move as the two rows that changed, not the frame', async () => {
    const vt = new VirtualTerminal(120, 40);
    const stdout = new FakeStdout(120, 40, (s) => vt.write(s));
    const writer = new FrameWriter(() => ({columns: 120, rows: 40}));
    const rows = Array.from({length: 36}, (_, i) => `device-${i}  10.3.2.${i}  laptop  online  ${'·'.repeat(70)}`);
    const frame = (selected: number) => <Frame rows={40} columns={120} lines={rows.map((text, i) => ({text, inverse: i === selected, color: 'green'}))} />;
    const instance = render(frame(3), {
      stdout: frameWriterStream(stdout as unknown as NodeJS.WriteStream, writer),
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      patchConsole: false,
      exitOnCtrlC: false,
      ...FRAME_OPTIONS,
    });
    const want = reference(frame(4), 120, 40);
    const before = stdout.written.length;
    instance.rerender(frame(4));
    await until(
      () => JSON.stringify(vt.dump()) === JSON.stringify(want.dump()),
      () => vt.text().join('\n'),
    );
    const sent = stdout.written.length - before;
    instance.unmount();
    // Ink alone writes the whole frame (~36 × 100 characters); the writer two rows and the
    // synchronized-output brackets.
    expect(sent).toBeLessThan(2 * (rows[3]!.length + 16) + 16);
  });

  it('draws the last frame whole after a resize that Ink writes nothing for, only while the console owns the screen', async () => {
    // Ink compares its output with the last one: a wider terminal with the same text gets no
    // write, but the terminal may have cleared or cut what it showed (seed -584038883).
    for (const owned of [true, false]) {
      let vt = new VirtualTerminal(30, 12);
      const stdout = new FakeStdout(30, 12, (s) => vt.write(s));
      const writer = new FrameWriter(() => ({columns: stdout.columns, rows: stdout.rows}));
      const lines: Line[] = [{text: 'device 😀 laptop', color: 'red', inverse: true}, {text: 'online'}];
      // The first frame is drawn while the console owns the screen; then it owns it or not.
      let owns = true;
      const instance = render(<Frame lines={lines} rows={12} columns={30} />, {
        stdout: frameWriterStream(stdout as unknown as NodeJS.WriteStream, writer, () => owns),
        stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
        patchConsole: false,
        exitOnCtrlC: false,
        ...FRAME_OPTIONS,
      });
      const want = reference(<Frame lines={lines} rows={12} columns={32} />, 32, 12);
      await until(
        () => vt.text()[0] === 'device 😀 laptop',
        () => vt.text().join('\n'),
      );
      owns = owned;
      const before = stdout.written.length;
      vt = vt.resized(32, 12, true);
      stdout.columns = 32;
      stdout.emit('resize');
      if (owned) {
        await until(
          () => JSON.stringify(vt.dump()) === JSON.stringify(want.dump()),
          () => vt.text().join('\n'),
        );
        // Once: the redraw, in synchronized output.
        const sent = stdout.written.slice(before);
        expect(sent.startsWith(`${ESC}[?2026h${ESC}[H`) && sent.endsWith(`${ESC}[?2026l`)).toBe(true);
      } else {
        // After exit or Ctrl-Z the screen is the shell's: nothing is drawn on it.
        await new Promise((r) => setTimeout(r, 300));
        expect(stdout.written.length).toBe(before);
      }
      instance.unmount();
    }
  });

  it("writes none of Ink's frames while the console does not own the screen (after Ctrl-Z, until the SIGCONT handler has it back), then the next frame whole", async () => {
    const vt = new VirtualTerminal(30, 6);
    const stdout = new FakeStdout(30, 6, (s) => vt.write(s));
    const writer = new FrameWriter(() => ({columns: stdout.columns, rows: stdout.rows}));
    let owns = true;
    const frame = (text: string) => <Frame lines={[{text}]} rows={6} columns={30} />;
    const instance = render(frame('live 1s'), {
      stdout: frameWriterStream(stdout as unknown as NodeJS.WriteStream, writer, () => owns),
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      patchConsole: false,
      exitOnCtrlC: false,
      ...FRAME_OPTIONS,
    });
    await until(
      () => vt.text()[0] === 'live 1s',
      () => vt.text().join('\n'),
    );
    owns = false;
    const before = stdout.written.length;
    instance.rerender(frame('live 2s · refreshing'));
    await new Promise((r) => setTimeout(r, 100));
    expect(stdout.written.length).toBe(before);
    // Back (cli.tsx: the alternate screen entered again, the writer told it is blank): drawn whole.
    owns = true;
    vt.write(`${ESC}[H${ESC}[2J`);
    writer.invalidate();
    instance.rerender(frame('live 3s'));
    await until(
      () => vt.text()[0] === 'live 3s',
      () => vt.text().join('\n'),
    );
    instance.unmount();
  });

  it('passes what it cannot account for through unchanged and draws the next frame whole', () => {
    const writer = new FrameWriter(() => ({columns: 20, rows: 5}));
    expect(writer.write('abc\n')).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabc`);
    expect(writer.write(`${ESC}[2K${ESC}[1A${ESC}[2K${ESC}[Gabd\n`)).toBe(`${ESC}[1;3Hd`);
    // Mode switches keep the model.
    expect(writer.write(`${ESC}[?2026h`)).toBe(`${ESC}[?2026h`);
    // An erase alone (Ink's log.clear): out from where Ink left its cursor, and forgotten.
    expect(writer.write(`${ESC}[2K${ESC}[1A${ESC}[2K${ESC}[G`)).toBe(`${ESC}[2H${ESC}[2K${ESC}[1A${ESC}[2K${ESC}[G`);
    expect(writer.write('abd\n')).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabd`);
    // A frame with an escape it does not model goes out as Ink wrote it (the guard filters it next).
    const osc = `${ESC}[2K${ESC}[1A${ESC}[2K${ESC}[Ga${ESC}]52;c;eA==\x07\n`;
    expect(writer.write(osc)).toBe(`${ESC}[2H${osc}`);
    expect(writer.write('abd\n')).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabd`);
  });

  it('draws whole after invalidate() (a resume from Ctrl-Z) and after the size changed, even without a resize event', () => {
    let size = {columns: 20, rows: 5};
    const writer = new FrameWriter(() => size);
    writer.write('abc\n');
    expect(writer.write('abd\n')).toBe(`${ESC}[1;3Hd`);
    writer.invalidate();
    expect(writer.write('abd\n')).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabd`);
    size = {columns: 21, rows: 5};
    expect(writer.write('abd\n')).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabd`);
  });

  it('forgets the screen on a resize event of the stream', () => {
    const stdout = new FakeStdout(20, 5, () => undefined);
    const writer = new FrameWriter(() => ({columns: 20, rows: 5}));
    const stream = frameWriterStream(stdout as unknown as NodeJS.WriteStream, writer);
    stream.write('abc\n');
    stdout.emit('resize');
    stdout.written = '';
    stream.write('abc\n');
    expect(stdout.written).toBe(`${ESC}[H${ESC}[m${ESC}[2Jabc`);
  });
});

describe("Ink 6.8's incremental mode (why src/ui/render-options.ts turns it off)", () => {
  it('writes every changed line one row too low once the frame ends with a newline, leaving the old line behind', async () => {
    const vt = new VirtualTerminal(20, 10);
    const stdout = new FakeStdout(20, 10, (s) => vt.write(s));
    const lines = (changed: boolean): Line[] => Array.from({length: 9}, (_, i) => ({text: changed && i === 1 ? 'new' : `line ${i}`}));
    const instance = render(<Frame rows={10} columns={20} lines={lines(false)} />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      patchConsole: false,
      exitOnCtrlC: false,
      incrementalRendering: true,
    });
    instance.rerender(<Frame rows={10} columns={20} lines={lines(true)} />);
    await until(
      () => vt.text().includes('new'),
      () => vt.text().join('\n'),
    );
    instance.unmount();
    // From the line below the frame (row 9) it goes up 8 rows (`ESC[8A`), not 9: line 1's new
    // text lands on row 2 over line 2, and row 1 keeps the stale "line 1".
    expect(stdout.written).toContain(`${ESC}[8A`);
    expect(vt.text().slice(0, 3)).toEqual(['line 0', 'line 1', 'new']);
  });
});
