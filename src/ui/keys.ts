// From Ink's key events to the controller: key names, several keys in one event, bracketed paste
// and Esc glued to the next key. The only `useInput` of the console calls `InputRouter.handle`.
import type {Key} from 'ink';
import type {Controller} from '../state/controller.js';

/** Normalises Ink's (input, key) pair into one name: `j`, `G`, `enter`, `ctrl+c`, `shift+tab`. */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if ((key as Key & {home?: boolean}).home) return 'home';
  if ((key as Key & {end?: boolean}).end) return 'end';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  // Ink 6 reports the usual backspace byte (0x7f) as `delete`.
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  return input;
}

/**
 * Splits a multi-character input chunk (fast typing, tmux send-keys, an unbracketed paste) into
 * keys. Ink 6 delivers such a chunk as one event with no key flags set, so "\t\t" would otherwise
 * read as text. Runs of printable characters stay together.
 */
export function splitChunk(input: string): Array<{input: string; name: string}> {
  const keys: Array<{input: string; name: string}> = [];
  let run = '';
  const flush = () => {
    if (run !== '') keys.push({input: run, name: run});
    run = '';
  };
  for (const ch of input) {
    const code = ch.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      run += ch;
      continue;
    }
    flush();
    if (ch === '\t') keys.push({input: ch, name: 'tab'});
    else if (ch === '\r' || ch === '\n') keys.push({input: ch, name: 'enter'});
    else if (code === 0x7f || code === 0x08) keys.push({input: ch, name: 'backspace'});
    else if (code === 0x1b) keys.push({input: ch, name: 'esc'});
    else keys.push({input: String.fromCharCode(code + 96), name: `ctrl+${String.fromCharCode(code + 96)}`});
  }
  flush();
  return keys;
}

// Bracketed paste (enabled by cli.tsx with ESC[?2004h): Ink hands the markers over as input.
const PASTE_START = '[200~';
const PASTE_END = '[201~';

/**
 * Collects a bracketed paste from Ink's events: `feed` returns the pasted text when the closing
 * marker arrives, true while the paste is being received, false for ordinary input.
 */
export class PasteBuffer {
  private text: string | null = null;

  feed(input: string, key: Key): string | boolean {
    if (this.text !== null) {
      const end = input.indexOf(PASTE_END);
      if (end >= 0) {
        const text = this.text + input.slice(0, end);
        this.text = null;
        return text;
      }
      // Ink strips the text of lone Enter/Tab events; put them back.
      this.text += key.return && input === '' ? '\r' : key.tab && input === '' ? '\t' : input;
      return true;
    }
    if (input === PASTE_START || input.endsWith(PASTE_START)) {
      this.text = '';
      return true;
    }
    return false;
  }
}

export class InputRouter {
  private readonly paste = new PasteBuffer();

  constructor(private readonly controller: Controller) {}

  handle(input: string, key: Key): void {
    const pasted = this.paste.feed(input, key);
    if (typeof pasted === 'string') {
      this.controller.paste(pasted);
      return;
    }
    if (pasted) return;
    const name = keyName(input, key);
    if (input.length > 1 && name === input) {
      for (const k of splitChunk(input)) {
        // Text entry takes printable runs whole; everywhere else each character is a command.
        if (k.name === k.input && !this.controller.acceptsText()) for (const ch of k.input) this.controller.key(ch, ch);
        else this.controller.key(k.name, k.input);
      }
      return;
    }
    if (key.meta && !key.escape && input.length === 1) {
      // ESC and the next key arriving together parse as Alt+key. The console binds no Alt
      // chords, so it is what the admin typed: Esc, then the key.
      this.controller.key('esc', '');
      this.controller.key(keyName(input, {...key, meta: false}), input);
      return;
    }
    this.controller.key(name, input);
  }
}
