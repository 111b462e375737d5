// A small virtual terminal for the frame writer's tests: it interprets what the console and Ink
// write (text, \r, \n, CUP/CUU/CUD/CUF/CUB/CHA/CNL/CPL, EL, ED, SGR; DEC private modes are
// accepted and ignored) into a grid of cells, each a grapheme and its attributes, with wide
// characters as tmux handles them: a wide character takes two cells, and writing over either half
// of one blanks the other half. Erases paint the current background (as xterm and tmux do).
// Written apart from src/ui/frame-diff.ts (its own SGR reading), so that one cannot agree with the
// other by sharing a mistake.
import stringWidth from 'string-width';

export interface Attrs {
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  blink: boolean;
  inverse: boolean;
  hidden: boolean;
  strike: boolean;
  overline: boolean;
  fg: string;
  bg: string;
}

export interface Cell {
  ch: string;
  attrs: Attrs;
  /** 0 a normal cell, 1 the left half of a wide character, 2 its right half. */
  wide: 0 | 1 | 2;
}

const plain = (): Attrs => ({
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  blink: false,
  inverse: false,
  hidden: false,
  strike: false,
  overline: false,
  fg: '',
  bg: '',
});

const segmenter = new Intl.Segmenter();

export class VirtualTerminal {
  grid: Cell[][];
  row = 0;
  col = 0;
  pendingWrap = false;
  attrs: Attrs = plain();
  /** Sequences it did not understand (a test fails on them). */
  unknown: string[] = [];

  constructor(
    readonly columns: number,
    readonly rows: number,
    /** The tty's ONLCR: \n also returns the carriage (Node's raw mode keeps it on). */
    private readonly onlcr = true,
  ) {
    this.grid = Array.from({length: rows}, () => this.blankRow());
  }

  private blank(bg = ''): Cell {
    return {ch: ' ', attrs: {...plain(), bg}, wide: 0};
  }

  private blankRow(): Cell[] {
    return Array.from({length: this.columns}, () => this.blank());
  }

  write(data: string): void {
    let i = 0;
    while (i < data.length) {
      const c = data[i]!;
      if (c === '\x1b') {
        // eslint-disable-next-line no-control-regex -- an escape sequence is what it reads
        const m = /^\x1b\[(\??)([0-9;]*)([A-Za-z])/.exec(data.slice(i, i + 80));
        if (!m) {
          this.unknown.push(JSON.stringify(data.slice(i, i + 8)));
          i++;
          continue;
        }
        this.csi(m[1]!, m[2]!, m[3]!);
        i += m[0].length;
        continue;
      }
      if (c === '\r') {
        this.col = 0;
        this.pendingWrap = false;
        i++;
        continue;
      }
      if (c === '\n') {
        if (this.onlcr) this.col = 0;
        this.pendingWrap = false;
        this.lineFeed();
        i++;
        continue;
      }
      // A run of text up to the next control or escape, cut into graphemes.
      let j = i;
      while (j < data.length && data[j] !== '\x1b' && data[j] !== '\r' && data[j] !== '\n') j++;
      for (const {segment} of segmenter.segment(data.slice(i, j))) this.print(segment);
      i = j;
    }
  }

  private lineFeed(): void {
    if (this.row === this.rows - 1) {
      this.grid.shift();
      this.grid.push(this.blankRow());
    } else this.row++;
  }

  private print(g: string): void {
    const width = stringWidth(g);
    if (width === 0) {
      // Joins the previous cell.
      let c = this.pendingWrap ? this.col : this.col - 1;
      if (c >= 0 && this.grid[this.row]![c]!.wide === 2) c--;
      if (c >= 0) this.grid[this.row]![c]!.ch += g;
      return;
    }
    if (this.pendingWrap || (width === 2 && this.col === this.columns - 1)) {
      this.col = 0;
      this.pendingWrap = false;
      this.lineFeed();
    }
    const line = this.grid[this.row]!;
    this.clearHalves(line, this.col, width);
    line[this.col] = {ch: g, attrs: {...this.attrs}, wide: width === 2 ? 1 : 0};
    if (width === 2) line[this.col + 1] = {ch: '', attrs: {...this.attrs}, wide: 2};
    if (this.col + width >= this.columns) {
      this.col = this.columns - 1;
      this.pendingWrap = true;
    } else this.col += width;
  }

  /** Before cells [col, col+width) are written: a wide character cut by them loses its other half. */
  private clearHalves(line: Cell[], col: number, width: number): void {
    if (line[col]!.wide === 2 && col > 0) line[col - 1] = this.blank();
    const last = col + width - 1;
    if (line[last]!.wide === 1 && last + 1 < this.columns) line[last + 1] = this.blank();
  }

  private erase(row: number, from: number, to: number): void {
    const line = this.grid[row]!;
    if (from > 0 && line[from]?.wide === 2) line[from - 1] = this.blank();
    if (to < this.columns && line[to - 1]?.wide === 1) line[to] = this.blank();
    for (let c = from; c < to; c++) line[c] = this.blank(this.attrs.bg);
  }

  private csi(priv: string, params: string, final: string): void {
    if (priv === '?') {
      if (final !== 'h' && final !== 'l') this.unknown.push(`?${params}${final}`);
      return;
    }
    const nums = params === '' ? [] : params.split(';').map((s) => (s === '' ? 0 : Number(s)));
    const n = (k: number, d: number) => (nums[k] === undefined || nums[k] === 0 ? d : nums[k]!);
    const clampRow = (r: number) => Math.max(0, Math.min(this.rows - 1, r));
    const clampCol = (c: number) => Math.max(0, Math.min(this.columns - 1, c));
    if (final !== 'm') this.pendingWrap = false;
    switch (final) {
      case 'A':
        this.row = clampRow(this.row - n(0, 1));
        break;
      case 'B':
        this.row = clampRow(this.row + n(0, 1));
        break;
      case 'C':
        this.col = clampCol(this.col + n(0, 1));
        break;
      case 'D':
        this.col = clampCol(this.col - n(0, 1));
        break;
      case 'E':
        this.row = clampRow(this.row + n(0, 1));
        this.col = 0;
        break;
      case 'F':
        this.row = clampRow(this.row - n(0, 1));
        this.col = 0;
        break;
      case 'G':
        this.col = clampCol(n(0, 1) - 1);
        break;
      case 'H':
      case 'f':
        this.row = clampRow(n(0, 1) - 1);
        this.col = clampCol(n(1, 1) - 1);
        break;
      case 'K': {
        const mode = nums[0] ?? 0;
        if (mode === 0) this.erase(this.row, this.col, this.columns);
        else if (mode === 1) this.erase(this.row, 0, this.col + 1);
        else if (mode === 2) this.erase(this.row, 0, this.columns);
        break;
      }
      case 'J': {
        const mode = nums[0] ?? 0;
        if (mode === 0) {
          this.erase(this.row, this.col, this.columns);
          for (let r = this.row + 1; r < this.rows; r++) this.erase(r, 0, this.columns);
        } else if (mode === 1) {
          for (let r = 0; r < this.row; r++) this.erase(r, 0, this.columns);
          this.erase(this.row, 0, this.col + 1);
        } else if (mode === 2) {
          for (let r = 0; r < this.rows; r++) this.erase(r, 0, this.columns);
        }
        // 3: the scrollback, which this terminal does not keep.
        break;
      }
      case 'm':
        this.sgr(nums.length === 0 ? [0] : nums);
        break;
      default:
        this.unknown.push(`${params}${final}`);
    }
  }

  private sgr(p: number[]): void {
    const a = this.attrs;
    for (let i = 0; i < p.length; i++) {
      const v = p[i]!;
      if (v === 0) this.attrs = plain();
      else if (v === 1) a.bold = true;
      else if (v === 2) a.dim = true;
      else if (v === 3) a.italic = true;
      else if (v === 4) a.underline = true;
      else if (v === 5) a.blink = true;
      else if (v === 7) a.inverse = true;
      else if (v === 8) a.hidden = true;
      else if (v === 9) a.strike = true;
      else if (v === 53) a.overline = true;
      else if (v === 22) a.bold = a.dim = false;
      else if (v === 23) a.italic = false;
      else if (v === 24) a.underline = false;
      else if (v === 25) a.blink = false;
      else if (v === 27) a.inverse = false;
      else if (v === 28) a.hidden = false;
      else if (v === 29) a.strike = false;
      else if (v === 55) a.overline = false;
      else if ((v >= 30 && v <= 37) || (v >= 90 && v <= 97)) a.fg = `c${v % 10}${v >= 90 ? '+' : ''}`;
      else if (v === 39) a.fg = '';
      else if ((v >= 40 && v <= 47) || (v >= 100 && v <= 107)) a.bg = `c${v % 10}${v >= 100 ? '+' : ''}`;
      else if (v === 49) a.bg = '';
      else if (v === 38 || v === 48) {
        const colour = p[i + 1] === 5 ? `i${p[i + 2]}` : `rgb(${p[i + 2]},${p[i + 3]},${p[i + 4]})`;
        i += p[i + 1] === 5 ? 2 : 4;
        if (v === 38) a.fg = colour;
        else a.bg = colour;
      } else this.unknown.push(`SGR ${v}`);
      if (v === 0) return this.sgr(p.slice(i + 1));
    }
  }

  /**
   * The terminal after a resize, as tmux does it on the alternate screen: each row cut or
   * padded, rows below the cursor dropped first, then rows from the top. With `clears`, as a
   * terminal that repaints its screen blank on a resize (what a terminal keeps is its own affair).
   */
  resized(columns: number, rows: number, clears = false): VirtualTerminal {
    const next = new VirtualTerminal(columns, rows, this.onlcr);
    if (clears) return next;
    let grid = this.grid.map((line) => line.slice(0, columns));
    let row = this.row;
    while (grid.length > rows && grid.length - 1 > row) grid.pop();
    while (grid.length > rows) {
      grid.shift();
      row--;
    }
    grid = grid.map((line) => {
      // A wide character cut in half at the new edge is blanked.
      if (line[columns - 1]?.wide === 1) line[columns - 1] = next.blank();
      while (line.length < columns) line.push(next.blank());
      return line;
    });
    while (grid.length < rows) grid.push(next.blankRow());
    next.grid = grid;
    next.row = Math.min(row, rows - 1);
    next.col = Math.min(this.col, columns - 1);
    next.attrs = {...this.attrs};
    return next;
  }

  /** One line per row: each cell as its text and attributes, for a readable comparison. */
  dump(): string[] {
    return this.grid.map((line, r) =>
      line
        .map((cell, c) => {
          const a = Object.entries(cell.attrs)
            .filter(([, v]) => v !== false && v !== '')
            .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`))
            .join(',');
          return `${r}:${c}${cell.wide === 2 ? '>' : ''}[${cell.ch}${a ? `|${a}` : ''}]`;
        })
        .join(''),
    );
  }

  /** The rows as plain text (right halves of wide characters left out). */
  text(): string[] {
    return this.grid.map((line) =>
      line
        .filter((c) => c.wide !== 2)
        .map((c) => c.ch)
        .join('')
        .trimEnd(),
    );
  }
}
