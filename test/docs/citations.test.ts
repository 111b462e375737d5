// Source comments cite the docs as `(docs/<file>.md, "<heading>")` (docs/architecture.md, first
// paragraph): a heading renamed or moved to another file must take its citations along. This test
// reads every comment in src/, scripts/ and test/, and fails on a citation whose file or heading
// does not exist. Quoted names after the file are headings (`"A" and "B"`, `"A" through "B"`, `"A", "B"`);
// one ending in `…` names the headings that start with it (`"Users: …"`).
import {readdirSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const SOURCE_FOLDERS = ['src', 'scripts', 'test'];
const SOURCE_FILE = /\.(ts|tsx|mts|mjs)$/;

interface Citation {
  file: string;
  doc: string;
  heading: string;
}

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(new URL(`${folder}/`, ROOT), {withFileTypes: true})) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE_FILE.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * The comment text of a source file, one block per run of comment lines, each block's lines joined
 * with a space (a citation may break across lines). Line comments and block comments only: a
 * string that happens to hold `//` is rare in this code and would at worst add a citation to check.
 */
function commentBlocks(source: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let inBlock = false;
  const flush = () => {
    // A word broken at its hyphen ("Empty-" / "body 500s") is joined without a space.
    if (current.length > 0) blocks.push(current.reduce((text, part) => (/[A-Za-z]-$/.test(text) ? text + part.trimStart() : `${text} ${part}`)).replace(/\s+/g, ' '));
    current = [];
  };
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    if (inBlock) {
      const end = trimmed.indexOf('*/');
      current.push(trimmed.slice(0, end < 0 ? undefined : end).replace(/^\*\s?/, ''));
      if (end >= 0) {
        inBlock = false;
        flush();
      }
      continue;
    }
    const block = trimmed.indexOf('/*');
    const lineComment = line.indexOf('//');
    if (block >= 0 && (lineComment < 0 || block < lineComment)) {
      const rest = trimmed.slice(block + 2).replace(/^\*/, '');
      const end = rest.indexOf('*/');
      current.push(end < 0 ? rest : rest.slice(0, end));
      if (end < 0) inBlock = true;
      else flush();
    } else if (lineComment >= 0 && !/['"`]https?:$/.test(line.slice(0, lineComment))) {
      current.push(line.slice(lineComment + 2));
      // A comment at the end of a line of code stands alone.
      if (line.slice(0, lineComment).trim() !== '') flush();
    } else flush();
  }
  flush();
  return blocks;
}

/** The citations in one block of comment text: each quoted name right after `docs/<file>.md,`. */
function citationsIn(text: string): Array<{doc: string; heading: string}> {
  const out: Array<{doc: string; heading: string}> = [];
  const cite = /docs\/([a-z0-9.-]+\.md)[,:]?\s*((?:"[^"]+"(?:\s*(?:,|;|and|through|or)\s*)?)+)/g;
  for (const m of text.matchAll(cite)) {
    for (const q of m[2]!.matchAll(/"([^"]+)"/g)) out.push({doc: m[1]!, heading: q[1]!.trim()});
  }
  return out;
}

/** The headings of a markdown file, without their `#`s (fenced code is not a heading). */
function headingsOf(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) out.push(line.replace(/^#+ /, '').trim());
  }
  return out;
}

function resolves(heading: string, headings: readonly string[]): boolean {
  if (heading.endsWith('…')) {
    const prefix = heading.slice(0, -1).trim();
    return headings.some((h) => h.startsWith(prefix));
  }
  return headings.includes(heading);
}

describe('doc citations in source comments', () => {
  it('reads citations across lines, in lists and as prefixes', () => {
    const source = [
      '// The thing (docs/architecture.md, "From a key',
      '// press to a new frame"). Also (docs/firezone-0.7.36.md, "Routes" through "Empty-',
      '// body 500s";',
      '// see docs/terminal-notes.md).',
      'const x = 1; // (docs/performance.md, "Start-up")',
      '/**',
      ' * A block (docs/firezone-0.7.36.md, "Users: …" and "Rules: overlap constraints").',
      ' */',
    ].join('\n');
    expect(commentBlocks(source).flatMap(citationsIn)).toEqual([
      {doc: 'architecture.md', heading: 'From a key press to a new frame'},
      {doc: 'firezone-0.7.36.md', heading: 'Routes'},
      {doc: 'firezone-0.7.36.md', heading: 'Empty-body 500s'},
      {doc: 'performance.md', heading: 'Start-up'},
      {doc: 'firezone-0.7.36.md', heading: 'Users: …'},
      {doc: 'firezone-0.7.36.md', heading: 'Rules: overlap constraints'},
    ]);
    expect(resolves('Users: …', ['Users: create, update, delete'])).toBe(true);
    expect(resolves('Users: …', ['Devices: create'])).toBe(false);
    expect(headingsOf('# A\n```\n# not one\n```\n### B c\n')).toEqual(['A', 'B c']);
  });

  it('every cited heading exists in the file cited', () => {
    const docs = new Map<string, string[] | null>();
    const headings = (doc: string): string[] | null => {
      if (!docs.has(doc)) {
        let text: string | null = null;
        try {
          text = readFileSync(new URL(`docs/${doc}`, ROOT), 'utf8');
        } catch {
          text = null;
        }
        docs.set(doc, text === null ? null : headingsOf(text));
      }
      return docs.get(doc)!;
    };
    const found: Citation[] = [];
    for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
      const source = readFileSync(new URL(file, ROOT), 'utf8');
      for (const c of commentBlocks(source).flatMap(citationsIn)) found.push({file, ...c});
    }
    // The citations are there to be checked: a parser that finds none would pass anything.
    expect(found.length).toBeGreaterThan(100);
    const broken = found.filter((c) => {
      const h = headings(c.doc);
      return h === null || !resolves(c.heading, h);
    });
    expect(broken.map((c) => `${c.file}: docs/${c.doc}, "${c.heading}"`)).toEqual([]);
  });
});
