// `y`: an item as the server sent it (README, "Screens"), as k9s shows a resource's YAML: the
// object the API returned, pretty-printed JSON, in a scrollable view; `/` keeps the lines holding
// a text, `v` reveals the secrets (masked as elsewhere), `c` copies what is shown. The lines are
// made once when it opens (a device with 10,000 allowed IPs is 10,000 of them); a frame draws the
// window on screen, and every string passes the display boundary there (src/ui/views/RawView.tsx).
import type {ConsoleContext} from '../core/context.js';
import type {RawModal} from '../core/modals.js';
import {topModal} from '../core/state.js';
import {scrolled} from './scrolling.js';
import type {Action} from '../input/keymap.js';
import {pasteTooLong, SEARCH_LIMIT, typedTooLong} from '../input/limits.js';
import {editText, isEditKey, isTypedKey, oneLineOf, pasteRefused} from '../input/textedit.js';

/** The keys whose values are secrets, wherever they are in the object. */
const SECRET_KEYS = new Set(['preshared_key', 'client_secret']);
const MASK = '••••••••••••';

/** `value` as pretty JSON lines, its secrets masked or not. */
function jsonLines(value: unknown, reveal: boolean): string[] {
  const text = JSON.stringify(value, (key, v: unknown) => (!reveal && SECRET_KEYS.has(key) && typeof v === 'string' && v !== '' ? MASK : v), 2);
  return (text ?? 'null').split('\n');
}

/** The lines holding `search` (case-insensitive), all of them without one. */
function linesFound(lines: readonly string[], search: string): readonly string[] {
  if (search === '') return lines;
  const needle = search.toLowerCase();
  return lines.filter((l) => l.toLowerCase().includes(needle));
}

export function openRawView(c: ConsoleContext, title: string, value: unknown): void {
  const masked = jsonLines(value, false);
  const revealed = jsonLines(value, true);
  c.push({
    kind: 'raw',
    title,
    masked,
    revealed,
    reveal: false,
    secret: masked.some((l, i) => l !== revealed[i]),
    search: '',
    searching: false,
    shown: masked,
    scroll: 0,
  } satisfies RawModal);
}

/** The modal with its lines made again for its search and reveal. */
function refound(m: RawModal, change: Partial<Pick<RawModal, 'search' | 'searching' | 'reveal'>>): RawModal {
  const next = {...m, ...change};
  return {...next, shown: linesFound(next.reveal ? next.revealed : next.masked, next.search), scroll: change.search !== undefined ? 0 : m.scroll};
}

function current(c: ConsoleContext): RawModal | null {
  const m = topModal(c.state);
  return m?.kind === 'raw' ? m : null;
}

export function rawAction(c: ConsoleContext, action: Action): void {
  const m = current(c);
  if (!m) return;
  const page = Math.max(1, c.layout.reportPage);
  const max = Math.max(0, Math.min(m.shown.length - 1, c.layout.reportLastPage));
  const to = scrolled(action, m.scroll, page, max);
  if (to !== null) {
    c.replaceModal(m, {...m, scroll: to});
    return;
  }
  switch (action) {
    case 'filter':
      return c.replaceModal(m, {...m, searching: true});
    case 'filterAccept':
      return c.replaceModal(m, {...m, searching: false});
    case 'reveal':
      if (!m.secret) c.message({tone: 'info', text: 'Nothing secret here to reveal'});
      else c.replaceModal(m, refound(m, {reveal: !m.reveal}));
      return;
    case 'copy':
      c.copy(m.reveal || !m.secret ? 'the JSON' : 'the JSON (secrets masked: v reveals them)', m.shown.join('\n'), {lines: true});
      return;
    case 'back':
      if (m.searching || m.search !== '') c.replaceModal(m, refound(m, {search: '', searching: false}));
      else c.removeModal(m);
      return;
    default:
  }
}

/** While searching, printable and line-editing keys edit the search (the caret stays at its end). */
export function typeIntoRaw(c: ConsoleContext, m: RawModal, name: string, input: string): boolean {
  if (!m.searching || !(name === 'paste' || isTypedKey(name, input) || isEditKey(name))) return false;
  const edited = editText({value: m.search, cursor: [...m.search].length}, name, input, {limit: SEARCH_LIMIT});
  if (!edited) return false;
  if (edited.overLimit) {
    c.message({
      tone: 'warning',
      fades: true,
      text: name === 'paste' ? pasteTooLong('the search', SEARCH_LIMIT, input) : typedTooLong('The search', SEARCH_LIMIT),
    });
    return true;
  }
  c.replaceModal(m, refound(m, {search: edited.value}));
  return true;
}

export function pasteIntoRaw(c: ConsoleContext, m: RawModal, text: string): void {
  const line = oneLineOf(text);
  if (!m.searching) {
    c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: 'Paste ignored: / starts a search first'});
    return;
  }
  if (!typeIntoRaw(c, m, 'paste', line)) c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteRefused('the search', line, 'text')});
}
