// Every place that takes text has a size, checked before anything else looks at the text (#44,
// "Every input has a size"; src/state/input/limits.ts). A 315 KB paste into a device's Description
// and Ctrl-S took 4 GB and killed the console; a 315 KB paste into `/` made each key take 11–26 s.
import {afterEach, describe, expect, it, vi} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {
  codePoints,
  COMMAND_LIMIT,
  describeLimit,
  FIELD_UNITS_MAX,
  FILTER_LIMIT,
  FILTER_TERMS_MAX,
  LONG_FIELD_UNITS_MAX,
  overLimit,
  pasteTooLong,
  PROMPT_LIMIT,
  SEARCH_LIMIT,
  typedTooLong,
} from '../../src/state/input/limits.js';
import {editText} from '../../src/state/input/textedit.js';
import {MESSAGE_MAX} from '../../src/state/core/state.js';
import {open, seeded} from '../helpers/fake-console.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the line editor within a limit', () => {
  it('refuses text that would pass the limit whole, and keeps the line as it was', () => {
    const line = {value: 'abc', cursor: 3};
    expect(editText(line, 'paste', 'x'.repeat(10), {limit: {units: 13}})).toMatchObject({value: 'abcxxxxxxxxxx', cursor: 13});
    const refused = editText(line, 'paste', 'x'.repeat(11), {limit: {units: 13}});
    expect(refused).toMatchObject({value: 'abc', cursor: 3, overLimit: true});
    expect(editText({value: 'x'.repeat(13), cursor: 13}, 'y', 'y', {limit: {units: 13}})?.overLimit).toBe(true);
    // Deleting from a line already over its limit (a server's value) still works.
    expect(editText({value: 'x'.repeat(20), cursor: 20}, 'backspace', '', {limit: {units: 13}})).toMatchObject({value: 'x'.repeat(19)});
  });

  it("counts characters as 0.7.36 does (graphemes, trimmed): 2048 accented letters of two code points fit Description's 2048", () => {
    const limit = {units: FIELD_UNITS_MAX, chars: 2048};
    const decomposed = 'e\u0301'.repeat(2048);
    expect(overLimit(decomposed, limit)).toBe(false);
    expect(overLimit(`${decomposed}e`, limit)).toBe(true);
    expect(overLimit(`  ${'x'.repeat(2048)}  `, limit)).toBe(false);
    expect(overLimit('x'.repeat(2049), limit)).toBe(true);
  });

  it('decides on a megabyte without segmenting it: the units are checked first', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    expect(editText({value: '', cursor: 0}, 'paste', 'é'.repeat(1_000_000), {limit: {units: FIELD_UNITS_MAX, chars: 2048}})?.overLimit).toBe(true);
    expect(segment).not.toHaveBeenCalled();
  });
});

describe('limits where the admin types', () => {
  it('a megabyte pasted into Description is refused with the numbers, and the form saves nothing of it', async () => {
    const {c, press, message} = await open(seeded());
    press('e');
    press('tab');
    c.paste('x'.repeat(1_000_000));
    expect(message()).toBe(
      "Paste ignored: Description holds at most 2,048 characters (0.7.36's limit), and with this paste (1,000,000 characters) it would hold more; nothing was inserted",
    );
    const m = topModal(c.state);
    expect(m?.kind === 'form' && m.form.values.description).toBe('');
    // A paste that fits goes in; a typed key past the limit is refused, not taken as a command.
    c.paste('y'.repeat(2048));
    press('q');
    const after = topModal(c.state);
    expect(after?.kind === 'form' && String(after.form.values.description).length).toBe(2048);
    expect(message()).toBe("Description holds at most 2,048 characters (0.7.36's limit): what was typed was not inserted");
  });

  it('a list field (allowed IPs) holds a megabyte; a one-value field (Name) is held to 255 characters', async () => {
    const {c, press, message} = await open(seeded());
    press('e');
    c.paste('n'.repeat(256));
    expect(message()).toContain("Name holds at most 255 characters (0.7.36's limit)");
    expect(LONG_FIELD_UNITS_MAX).toBeGreaterThanOrEqual(1024 * 1024);
  });

  it('the filter holds 1,024 characters and 32 terms', async () => {
    const {c, press, message} = await open(seeded());
    c.paste('x'.repeat(FILTER_LIMIT.units + 1));
    expect(c.state.lists.devices.filter).toBe('');
    expect(message()).toContain('Paste ignored: the filter holds at most 1,024 characters');
    press('/');
    c.paste(Array.from({length: FILTER_TERMS_MAX}, (_, i) => `!t${i}`).join(' '));
    expect(c.state.lists.devices.filter.split(' ')).toHaveLength(FILTER_TERMS_MAX);
    press(' ', '!', 'z');
    expect(message()).toBe('the filter takes at most 32 terms, and this would make 33; nothing was inserted');
    expect(c.state.lists.devices.filter.endsWith('!')).toBe(true);
  });

  it('the command bar holds 1,024 characters, and says so in the bar', async () => {
    const {c, press} = await open(seeded());
    press(':');
    c.paste(`devices ${'漢'.repeat(COMMAND_LIMIT.units)}`);
    expect(c.state.command?.value).toBe('');
    expect(c.state.command?.error).toContain('Paste ignored: the command bar holds at most 1,024 characters');
  });
});

describe('server text in the status line', () => {
  it('a message is kept to MESSAGE_MAX characters, saying how much was left out', async () => {
    const {c} = await open(seeded());
    c.message({tone: 'error', text: `422: ${'ü'.repeat(120_000)}`});
    const text = c.state.message!.text;
    expect(text.length).toBeLessThan(MESSAGE_MAX + 60);
    expect(text).toMatch(/… \(117,957 more characters not shown\)$/);
  });
});

describe('the limits themselves', () => {
  it('count code points, a surrogate pair as one and a lone half as one', () => {
    expect(codePoints('')).toBe(0);
    expect(codePoints('abc')).toBe(3);
    expect(codePoints('👩‍💻')).toBe(3);
    expect(codePoints('a\ud83d')).toBe(2);
    expect(codePoints('\udc00\ud83d')).toBe(2);
    expect(codePoints('\ud83d\ud83d\udc69')).toBe(2);
    expect(codePoints('é'.repeat(1000) + '🇫🇷')).toBe(1002);
  });

  it('hold a value to its units first, then to its characters', () => {
    expect(overLimit('abcde', {units: 5})).toBe(false);
    expect(overLimit('abcdef', {units: 5})).toBe(true);
    // Fewer characters than the limit, more units: the units decide.
    expect(overLimit('abcdef', {units: 5, chars: 10})).toBe(true);
    expect(overLimit('abcde', {units: 5, chars: 10})).toBe(false);
    // At the limit in characters, and one past it.
    expect(overLimit('e\u0301'.repeat(3), {units: 100, chars: 3})).toBe(false);
    expect(overLimit('e\u0301'.repeat(4), {units: 100, chars: 3})).toBe(true);
    expect(overLimit('abc', {units: 100, chars: 3})).toBe(false);
    expect(overLimit('abcd', {units: 100, chars: 3})).toBe(true);
  });

  it('say what was refused, with the numbers', () => {
    expect(describeLimit({units: 1024})).toBe('1,024 characters');
    expect(describeLimit({units: 8192, chars: 255})).toBe("255 characters (0.7.36's limit)");
    expect(pasteTooLong('Name', {units: 8192, chars: 255}, 'x'.repeat(300))).toBe(
      "Paste ignored: Name holds at most 255 characters (0.7.36's limit), and with this paste (300 characters) it would hold more; nothing was inserted",
    );
    expect(typedTooLong('The filter', FILTER_LIMIT)).toBe('The filter holds at most 1,024 characters: what was typed was not inserted');
  });

  it('a prompt holds 8 KiB, a search 256 characters', () => {
    expect(editText({value: '', cursor: 0}, 'paste', 'x'.repeat(PROMPT_LIMIT.units), {limit: PROMPT_LIMIT})?.value).toHaveLength(8192);
    expect(editText({value: '', cursor: 0}, 'paste', 'x'.repeat(PROMPT_LIMIT.units + 1), {limit: PROMPT_LIMIT})?.overLimit).toBe(true);
    expect(editText({value: '', cursor: 0}, 'paste', 'x'.repeat(256), {limit: SEARCH_LIMIT})?.value).toHaveLength(256);
    expect(editText({value: '', cursor: 0}, 'paste', 'x'.repeat(257), {limit: SEARCH_LIMIT})?.overLimit).toBe(true);
    expect(FIELD_UNITS_MAX).toBe(8192);
    expect(COMMAND_LIMIT.units).toBe(1024);
  });
});
