import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutFiles, GAMES_DIR, ROOT } from '../gym/paths';

/**
 * A module small enough to read in one sitting: no source file outside games/ is longer than
 * MAX_LINES (games are ordinary browser programs, each in its own folder, and may be longer).
 * Generated files say so in their first lines ("do not edit") and are left out: their length
 * follows what they are generated from.
 */
const MAX_LINES = 600;
/** Source in any of the project's languages; declaration files (.d.ts) are not written by hand. */
const SOURCE_FILE = /^(?!.*\.d\.ts$).*\.(ts|tsx|mts|cts|js|mjs|cjs|py|sh|wgsl)$/;
const GENERATED = /do not edit/i;

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file sizes', () => {
  it(`no source file outside games/ is over ${MAX_LINES} lines`, () => {
    const files = checkoutFiles(ROOT, SOURCE_FILE, [GAMES_DIR]);
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
