// Sorting in two keys: `s`, then the letter of a column (underlined in its title while `s` waits).
// Each sortable column gets the first letter of its title that no column before it took, so the
// letters stay the same from one run to the next and read as the title does (NAME n, OWNER o,
// RX r, TX t, RX/S x, TX/S s); a title with no free letter gets a digit.
import type {ConsoleContext, ListDerived} from '../core/context.js';
import type {Action} from '../input/keymap.js';

export interface SortLetter {
  letter: string;
  /** Where the letter is in the column's title (-1: a digit, not in the title). */
  at: number;
}

export function sortLetters(columns: ReadonlyArray<{key: string; header: string; sortValue?: unknown}>): Map<string, SortLetter> {
  const out = new Map<string, SortLetter>();
  const taken = new Set<string>();
  let digit = 1;
  for (const column of columns) {
    if (!column.sortValue) continue;
    const title = column.header.toLowerCase();
    let chosen: SortLetter | null = null;
    for (let i = 0; i < title.length && !chosen; i++) {
      const ch = title[i]!;
      if (ch >= 'a' && ch <= 'z' && !taken.has(ch)) chosen = {letter: ch, at: i};
    }
    if (!chosen && digit <= 9) chosen = {letter: String(digit++), at: -1};
    if (!chosen) continue;
    taken.add(chosen.letter);
    out.set(column.key, chosen);
  }
  return out;
}

/** `s` on a list: the next key picks the column. */
export function startSortPick(c: ConsoleContext, list: ListDerived): void {
  c.updateList(list.spec.id, (st) => ({...st, sortPicking: true}));
}

/** Esc after `s`: the sort stays as it was. */
export function sortPickAction(c: ConsoleContext, action: Action): void {
  const list = c.activeList();
  if (list && action === 'cancel') c.updateList(list.spec.id, (st) => ({...st, sortPicking: false}));
}

/** The key after `s` that takes the sort away: the list in its own order (the rules': the firewall's). */
export const UNSORTED_KEY = '0';

function unsortedName(list: ListDerived): string {
  return list.spec.ownOrder ?? 'unsorted';
}

/** The key after `s`: that column (the sorted one again: the other way), 0 the list's own order, or why not. */
export function pickSortColumn(c: ConsoleContext, list: ListDerived, key: string): void {
  if (key === UNSORTED_KEY) {
    c.updateList(list.spec.id, (st) => ({...st, sortPicking: false, sort: null}));
    return;
  }
  const letters = sortLetters(list.columns);
  const lower = key.toLowerCase();
  const column = list.columns.find((col) => letters.get(col.key)?.letter === lower);
  if (!column) {
    c.message({
      tone: 'info',
      text: `No column has the letter ${key} here: press one of ${[...letters.values()].map((l) => l.letter).join(' ')}, or ${UNSORTED_KEY} for ${unsortedName(list)} (Esc cancels)`,
    });
    return;
  }
  c.updateList(list.spec.id, (st) => ({
    ...st,
    sortPicking: false,
    sort: st.sort?.key === column.key ? {key: column.key, desc: !st.sort.desc} : {key: column.key, desc: column.defaultDesc === true},
  }));
}

/**
 * The info line while `s` waits: each column's letter and title, and when they do not fit on it,
 * the rest on the key-hints line under it (`hints`; null when one line holds them). A column the
 * width hides has no title above to read its letter in, so titles go before letters alone; only
 * when two lines cannot hold them are the letters said alone.
 */
export function sortPickLines(list: ListDerived, width = Infinity): {info: string; hints: string | null} {
  const letters = sortLetters(list.columns);
  const named = list.columns.flatMap((col) => {
    const l = letters.get(col.key);
    return l ? [`${l.letter} ${col.header.trim() || col.key}`] : [];
  });
  const own = `${UNSORTED_KEY} ${unsortedName(list)}`;
  const fits = (line: string) => [...line].length <= width;
  for (const gap of [' · ', '  ']) {
    const line = `sort by: ${[...named, own, 'Esc cancels'].join(gap)}`;
    if (fits(line)) return {info: line, hints: null};
  }
  // Two lines: as many titles on the first as it holds, the rest, the list's own order and Esc on the second.
  const first: string[] = [];
  let at = 0;
  while (at < named.length && fits(`sort by: ${[...first, named[at]!].join('  ')}`)) first.push(named[at++]!);
  const second = [...named.slice(at), own, 'Esc cancels'].join('  ');
  if (first.length > 0 && fits(second)) return {info: `sort by: ${first.join('  ')}`, hints: second};
  const letterLines = [
    `sort by: ${named.map((n) => n.split(' ')[0]).join(' ')} (the letters in the column titles) · ${own} · Esc cancels`,
    `sort by: ${named.map((n) => n.split(' ')[0]).join(' ')} ${UNSORTED_KEY} · Esc cancels`,
  ];
  return {info: letterLines.find(fits) ?? letterLines[letterLines.length - 1]!, hints: null};
}

/** The info line while `s` waits (sortPickLines' first line). */
export function sortPickInfo(list: ListDerived, width = Infinity): string {
  return sortPickLines(list, width).info;
}
