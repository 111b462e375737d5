// One read of the terminal, from its decoded events to the keys and pastes it carried
// (docs/terminal-notes.md, "Key events": a paste without brackets is a read of many keys). A read is counted
// (how many key presses, pastes and unknown sequences it held), so that a question is answered only
// by a read that is one key press (`typedAhead`); once a key of a read of several does nothing
// where it lands, the rest of that read is not run, and the status line says how many.
import type {ConsoleContext, InputRead} from '../core/context.js';
import type {StatusMessage} from '../core/state.js';
import type {InputEvent} from './decoder.js';
import {keyPress, paste} from './dispatch.js';
import {displayKey} from './keymap.js';
import {codePoints} from './limits.js';
import {acceptsText} from './scopes.js';
import {mouseInput, type ClickMemory} from './mouse.js';

/**
 * What one read carried: each key press, each typed character, each paste, each sequence the
 * console does not know and each mouse report. A key typed alone is 1; `hello yes` written at once
 * is 9; a `y` that comes with a click is not a key typed alone.
 */
export function pressesIn(events: readonly InputEvent[]): number {
  let presses = 0;
  for (const event of events) presses += event.type === 'text' ? [...event.text].length : 1;
  return presses;
}

/** The keys of the terminal's reads, one read at a time, for one console. */
export class KeyReads {
  /** The read being handled. */
  current: InputRead = {number: 0, presses: 0};
  /**
   * Set once a key of a read of several did nothing: the rest of that read is not run (counted).
   * `said`: what the status line said when that key was handled (its own refusal, if it made one).
   */
  private stopped: {key: string; said: StatusMessage | null; dropped: number} | null = null;
  /** The last click, for telling a double-click (src/state/input/mouse.ts). */
  private readonly clicks: ClickMemory = {last: null};

  constructor(private readonly c: ConsoleContext) {}

  /** One read's events: keys by name, pastes as data, typed runs as text where text goes. */
  handle(events: readonly InputEvent[], read: number): void {
    this.begin(read, pressesIn(events));
    try {
      for (const event of events) {
        if (event.type === 'paste') this.paste(event.text);
        else if (event.type === 'key') this.key(event.name, event.input);
        // Text entry takes a typed run whole; everywhere else each character is a command.
        else if (event.type === 'text' && acceptsText(this.c.state)) this.key(event.text, event.text);
        else if (event.type === 'text') for (const ch of event.text) this.key(ch, ch);
        // The pointer: not a key (it never stops a read), but not run after a key that stopped it.
        else if (event.type === 'mouse' && !this.stopped && this.c.settings.mouse !== false) mouseInput(this.c, event, Date.now(), this.clicks);
      }
    } finally {
      this.end();
    }
  }

  /** The keys that follow came in read `read`, which carried `presses` keys, pastes and sequences. */
  begin(read: number, presses: number): void {
    this.current = {number: read, presses};
    this.stopped = null;
  }

  /**
   * The read's keys have all been handled. Keys dropped after one that did nothing are said: a
   * key that does nothing where it lands (`/` in a detail) does not let the rest of its read run
   * as commands (the filter `owner:dana` typed fast once opened Edit with its `e`).
   */
  end(): void {
    const stopped = this.stopped;
    this.stopped = null;
    if (!stopped || stopped.dropped === 0) return;
    const n = stopped.dropped;
    const after = `the ${n === 1 ? 'key' : `${n.toLocaleString('en-US')} keys`} that came after it in the same read ${n === 1 ? 'was' : 'were'} not run`;
    // The key's own refusal ("/ does nothing here (…)") is kept and told the rest; a key that said
    // nothing (a letter a dialog does not take) is named.
    const shown = this.c.state.message;
    if (shown && shown === stopped.said) this.c.message({...shown, text: `${shown.text}; ${after}`});
    else this.c.message({tone: 'warning', text: `${stopped.key} does nothing here, and ${after}`});
  }

  /** One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. */
  key(name: string, input: string): void {
    // A key between two clicks on the same cell makes them two clicks, not a double-click.
    this.clicks.last = null;
    if (this.stopped) {
      this.stopped.dropped += input.length > 1 ? codePoints(input) : 1;
      return;
    }
    const before = this.c.state.message;
    const taken = keyPress(this.c, name, input);
    if (taken || this.current.presses <= 1) return;
    const said = this.c.state.message;
    // A letter typed is quoted ("h"); a named key or a chord by its name (Space, Tab, Ctrl-X).
    const key = name === input && input.length === 1 && input > ' ' ? `"${input}"` : displayKey(name);
    this.stopped = {key, said: said !== before ? said : null, dropped: 0};
  }

  /** A bracketed paste: one insertion where text goes. */
  paste(text: string): void {
    this.clicks.last = null;
    if (this.stopped) {
      this.stopped.dropped++;
      return;
    }
    paste(this.c, text);
  }
}
