// Text into a list's `/` filter: typed keys at the caret, and a paste, which on a list opens the
// filter with it (a key from `wg show`). Within the filter's limits: FILTER_LIMIT characters and
// FILTER_TERMS_MAX terms (docs/architecture.md, "Sizes: every input has a limit").
import type {ConsoleContext, ListDerived} from '../core/context.js';
import {FILTER_LIMIT, FILTER_TERMS_MAX, pasteTooLong, typedTooLong} from '../input/limits.js';
import {editText, isEditKey, isTypedKey, oneLineOf, pasteRefused, type LineEdit} from '../input/textedit.js';
import {tokenizeFilter} from './filter-query.js';
import {filterFromPaste} from './search.js';
import type {FilterEdit} from './view-state.js';

/**
 * A key or a paste in the `/` filter, within its limits: the edited line, why it was refused, or
 * null when the key is not an edit. Every refresh runs the filter over the whole list, so a
 * filter of 20,000 terms cost seconds on each; FILTER_TERMS_MAX keeps it to what is typed.
 */
function editFilter(line: LineEdit, name: string, input: string): LineEdit | string | null {
  const edited = editText(line, name, input, {limit: FILTER_LIMIT});
  if (!edited) return null;
  if (edited.overLimit) return name === 'paste' ? pasteTooLong('the filter', FILTER_LIMIT, input) : typedTooLong('The filter', FILTER_LIMIT);
  const terms = tokenizeFilter(edited.value).length;
  if (terms > FILTER_TERMS_MAX && terms > tokenizeFilter(line.value).length) {
    return `${name === 'paste' ? 'Paste ignored: ' : ''}the filter takes at most ${FILTER_TERMS_MAX} terms, and this would make ${terms}; nothing was inserted`;
  }
  return edited;
}

/** An edited filter's caret and undo steps, as the list's view state stores them beside the text. */
function caretOf(edited: LineEdit): FilterEdit {
  return {cursor: edited.cursor, undo: edited.undo ?? [], typing: edited.typing ?? false};
}

/** A key while the filter is typed: text or an edit at the caret; false when it is neither. */
export function typeIntoFilter(c: ConsoleContext, list: ListDerived, name: string, input: string): boolean {
  if (!isTypedKey(name, input) && !isEditKey(name)) return false;
  const st = list.state;
  const edited = editFilter({value: st.filter, ...st.filterEdit}, name, input);
  if (typeof edited === 'string') c.message({tone: 'warning', fades: true, text: edited});
  else if (edited) c.updateList(list.spec.id, (x) => ({...x, filter: edited.value, filterEdit: caretOf(edited)}));
  return true;
}

/** A paste on a list: typed at the caret of the filter, or it opens the filter with it. */
export function pasteIntoFilter(c: ConsoleContext, list: ListDerived, text: string): void {
  const st = list.state;
  const oneLine = oneLineOf(text);
  const line: LineEdit = st.filtering ? {value: st.filter, ...st.filterEdit} : {value: '', cursor: 0};
  // A `peer: KEY` line from `wg show` (alone or in a pasted stanza) filters by the key (the row holds the key, not the label).
  const pasted = filterFromPaste(text);
  if (pasted.keyFrom) c.message({tone: 'info', text: `Filtering by the key of the pasted "${pasted.keyFrom}:" line`});
  const typedText = pasted.keyFrom ? pasted.text : oneLine;
  const edited = editFilter(pasted.keyFrom && st.filtering ? {value: '', cursor: 0} : line, 'paste', st.filtering ? typedText : typedText.trim());
  if (edited === null || typeof edited === 'string') {
    c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: edited ?? pasteRefused('the filter', oneLine, 'text')});
    return;
  }
  c.updateList(list.spec.id, (s) => ({...s, filtering: true, filter: edited.value, filterEdit: caretOf(edited)}));
}
