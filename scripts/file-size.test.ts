import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../gym/paths';

/**
 * A module small enough to read in one sitting: no source file outside games/ is longer than
 * MAX_LINES (games are ordinary browser programs, each in its own folder, and may be longer).
 * Generated files say so in their first lines ("do not edit") and are left out: their length
 * follows what they are generated from.
 */
const MAX_LINES = 600;
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|py|sh|wgsl)$/;
const NOT_SOURCE = new Set(['node_modules', 'public', 'dist', 'out', 'runs', 'test-results', 'playwright-report', 'scratch', '.next', '__pycache__']);
const GAMES = path.join(ROOT, 'games');
const GENERATED = /do not edit/i;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.name.startsWith('.') || NOT_SOURCE.has(e.name) || p === GAMES) continue;
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (SOURCE_FILE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file sizes', () => {
  it(`no source file outside games/ is over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      if (GENERATED.test(text.split('\n', 8).join('\n'))) return [];
      const n = lineCount(text);
      return n > MAX_LINES ? [`${path.relative(ROOT, file)}: ${n} lines`] : [];
    });
    expect(long, 'split these by what their parts do').toEqual([]);
  });

  it('counts lines as an editor numbers them', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
  });
});
