// A patch of Ink 6.8's Output.get() (ink/build/output.js), applied as the bundle is built
// (scripts/esbuild-common.mjs, inkSharedOutputCache). See docs/performance.md, "Frames made row
// by row".
//
// Ink makes every frame whole: a grid of width × height cell objects (two allocations a cell,
// ~10,000 at 120×40), every write placed on it cell by cell, every row turned back into a string
// with styledCharsToString. In the bench's refresh and key phases that was the largest piece of
// the console's own CPU, and most of it re-made rows that had not changed: a cursor move changes
// two rows of forty.
//
// Here each row is made from the writes that land on it — after clipping and transformers, in
// order: the x where each starts and its text — and a row whose writes are exactly those of a row
// made recently is that row's string. A row that is made is made by Ink's own code (the same
// blank cells, placement, wide-character cells, filter, styledCharsToString and trimEnd, for that
// row alone), so the output is the original's character for character:
// test/ui/ink-output-rows.test.ts holds the two to the same frames.
//
// The patch replaces the method wholesale, so it is pinned to the file it was written against: a
// different output.js (an Ink upgrade) fails the build until the patch is reviewed.
import {createHash} from 'node:crypto';

/** sha256 of ink/build/output.js as Ink 6.8.0 ships it. */
export const INK_OUTPUT_SHA256 = 'de9078c7fc647c40cf9e32d6658fcbbee91dae9e3f6334e5f4ebfc5905fc401d';

const ROW_MEMO = `
// fz-console: rows made recently, by the writes that made them (scripts/ink-output-rows.mjs).
// Bounded: a few screens of rows; cleared when full.
const fzRowMemo = new Map();
const FZ_ROW_MEMO_MAX = 1024;
`;

const GET = `    get() {
        // fz-console (scripts/ink-output-rows.mjs): the writes that land on each row, in order,
        // as [x, line] pairs after clipping and transformers; a row is made only when its writes
        // are not those of a row made recently.
        const placements = [];
        for (let y = 0; y < this.height; y++) {
            placements.push([]);
        }
        const clips = [];
        for (const operation of this.operations) {
            if (operation.type === 'clip') {
                clips.push(operation.clip);
            }
            if (operation.type === 'unclip') {
                clips.pop();
            }
            if (operation.type === 'write') {
                const { text, transformers } = operation;
                let { x, y } = operation;
                let lines = text.split('\\n');
                const clip = clips.at(-1);
                if (clip) {
                    const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
                    const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
                    if (clipHorizontally) {
                        const width = this.caches.getWidestLine(text);
                        if (x + width < clip.x1 || x > clip.x2) {
                            continue;
                        }
                    }
                    if (clipVertically) {
                        const height = lines.length;
                        if (y + height < clip.y1 || y > clip.y2) {
                            continue;
                        }
                    }
                    if (clipHorizontally) {
                        lines = lines.map(line => {
                            const from = x < clip.x1 ? clip.x1 - x : 0;
                            const width = this.caches.getStringWidth(line);
                            const to = x + width > clip.x2 ? clip.x2 - x : width;
                            return sliceAnsi(line, from, to);
                        });
                        if (x < clip.x1) {
                            x = clip.x1;
                        }
                    }
                    if (clipVertically) {
                        const from = y < clip.y1 ? clip.y1 - y : 0;
                        const height = lines.length;
                        const to = y + height > clip.y2 ? clip.y2 - y : height;
                        lines = lines.slice(from, to);
                        if (y < clip.y1) {
                            y = clip.y1;
                        }
                    }
                }
                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const row = placements[y + offsetY];
                    // As Ink: a line below the last row (or above the first) is dropped, and so
                    // are the lines after it (offsetY does not move on).
                    if (!row) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    row.push(x, line);
                    offsetY++;
                }
            }
        }
        const rows = [];
        for (let y = 0; y < this.height; y++) {
            const row = placements[y];
            // Lengths make the key unambiguous whatever the text holds.
            let key = this.width + ';';
            for (let k = 0; k < row.length; k += 2) {
                key += row[k] + ':' + row[k + 1].length + ':' + row[k + 1];
            }
            let text = fzRowMemo.get(key);
            if (text === undefined) {
                text = this.fzMakeRow(row);
                if (fzRowMemo.size >= FZ_ROW_MEMO_MAX) {
                    fzRowMemo.clear();
                }
                fzRowMemo.set(key, text);
            }
            rows.push(text);
        }
        return {
            output: rows.join('\\n'),
            height: rows.length,
        };
    }
    // Ink's own making of one row from its writes (the body of the original get(), for one row).
    fzMakeRow(row) {
        const currentLine = [];
        for (let x = 0; x < this.width; x++) {
            currentLine.push({
                type: 'char',
                value: ' ',
                fullWidth: false,
                styles: [],
            });
        }
        for (let k = 0; k < row.length; k += 2) {
            const characters = this.caches.getStyledChars(row[k + 1]);
            let offsetX = row[k];
            for (const character of characters) {
                currentLine[offsetX] = character;
                const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                if (characterWidth > 1) {
                    for (let index = 1; index < characterWidth; index++) {
                        currentLine[offsetX + index] = {
                            type: 'char',
                            value: '',
                            fullWidth: false,
                            styles: character.styles,
                        };
                    }
                }
                offsetX += characterWidth;
            }
        }
        const lineWithoutEmptyItems = currentLine.filter(item => item !== undefined);
        return styledCharsToString(lineWithoutEmptyItems).trimEnd();
    }
`;

/**
 * Replaces Output's get() in the text of ink/build/output.js (as Ink ships it: checked by hash)
 * with the row-by-row one above.
 */
export function inkOutputRows(code) {
  const hash = createHash('sha256').update(code).digest('hex');
  if (hash !== INK_OUTPUT_SHA256)
    throw new Error(`ink-output-rows: ink/build/output.js is not the file the patch was written for (sha256 ${hash}); review scripts/ink-output-rows.mjs`);
  const start = code.indexOf('    get() {\n');
  const end = code.lastIndexOf('}\n');
  if (start < 0 || end < start) throw new Error('ink-output-rows: no get() in ink/build/output.js');
  const at = code.indexOf('export default class Output {');
  return code.slice(0, at) + ROW_MEMO + code.slice(at, start) + GET + code.slice(end);
}
