import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutFiles, ROOT } from '../gym/paths';

/**
 * The house's layers, as the root README's layer table gives them: a module imports its own layer
 * or lower ones, never a higher one, and no chain of imports between files comes back to where it
 * started. The table is the one list: this test reads it, so the documentation cannot drift from
 * what is checked. Every import counts, type-only and dynamic ones included: a type import is a
 * dependency a reader follows too.
 */

interface Layer {
  rank: number;
  folders: string[];
}

/** Rows of the README's layer table: | 1 | `gym/`, `verifiers/` | what it is | */
function readLayers(): Layer[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Layers'));
  const rows = [...section.matchAll(/^\|\s*(\d+)\s*\|([^|]+)\|/gm)];
  return rows.map(([, rank, cell]) => ({ rank: Number(rank), folders: [...cell.matchAll(/`([^`]+?)\/?`/g)].map((m) => m[1]) }));
}

const TEST_FILE = /\.(test|spec)\.tsx?$/;
/** Declaration files (.d.ts) hold no imports of ours. */
const SOURCE_FILE = /^(?!.*\.d\.ts$).*\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The project's sources as paths from the root, with forward slashes. */
function sourceFiles(): string[] {
  return checkoutFiles(ROOT, SOURCE_FILE).map((p) => path.relative(ROOT, p).split(path.sep).join('/'));
}

/** Relative module specifiers of a source: static and type imports, re-exports, side-effect and dynamic imports, require. */
function specifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"](\.[^'"]*)['"]/g,
    /\bimport\s*['"](\.[^'"]*)['"]/g,
    /\b(?:import|require)\s*\(\s*['"](\.[^'"]*)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...source.matchAll(re)].map((m) => m[1]));
}

/** The project file a specifier names, as TypeScript resolves it (extension or index file); null outside the sources. */
function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(js|mjs|cjs)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.js`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`])
    if (files.has(c)) return c;
  return null;
}

/** The import graph of the project's sources, tests included (a test's import is one too). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const set = new Set(files);
  return new Map(
    files.map((f) => [f, [...new Set(specifiers(readFileSync(path.join(ROOT, f), 'utf8')).map((s) => resolveImport(f, s, set)))].filter((t) => t !== null)]),
  );
}

/** The layer of a file: that of the longest folder prefix in the table; files at the root are above every layer. */
function layerOf(file: string, layers: readonly Layer[]): number {
  let best: { rank: number; length: number } | null = null;
  for (const l of layers)
    for (const f of l.folders) if ((file === f || file.startsWith(`${f}/`)) && f.length > (best?.length ?? -1)) best = { rank: l.rank, length: f.length };
  return best?.rank ?? (file.includes('/') ? Number.NaN : Number.POSITIVE_INFINITY);
}

/** Every cycle's files (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('layers', () => {
  const layers = readLayers();
  const graph = importGraph();

  it('the README lists each layer once, in order, each folder once, and every top-level source folder is in one', () => {
    expect(layers.map((l) => l.rank)).toEqual(layers.map((_, i) => i + 1));
    const folders = layers.flatMap((l) => l.folders);
    expect(new Set(folders).size).toBe(folders.length);
    const unplaced = [...new Set([...graph.keys()].filter((f) => f.includes('/')).map((f) => f.split('/')[0]))].filter((top) => !folders.includes(top));
    expect(unplaced, 'top-level folders with sources that no layer of the README names').toEqual([]);
  });

  it('places a file by its longest folder in the table, and root files above every layer', () => {
    expect(layerOf('gym/ppo/train.ts', layers)).toBe(1);
    expect(layerOf('games/snake/main.ts', layers)).toBe(2);
    expect(layerOf('leaderboard/seed.ts', layers)).toBeLessThan(layerOf('cli/commands/train.ts', layers));
    expect(layerOf('vitest.config.ts', layers)).toBe(Number.POSITIVE_INFINITY);
  });

  it('finds a cycle and only a cycle', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('no import goes from a lower layer to a higher one', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      // A test may reach up: it checks how the layers fit together, and nothing imports it.
      if (TEST_FILE.test(file)) continue;
      const from = layerOf(file, layers);
      for (const t of targets) if (layerOf(t, layers) > from) upward.push(`${file} (layer ${from}) imports ${t} (layer ${layerOf(t, layers)})`);
    }
    expect(upward, 'imports that go up a layer (README.md, "Layers")').toEqual([]);
  });

  it('no chain of imports comes back to where it started', () => {
    expect(importCycles(graph), 'import cycles').toEqual([]);
  });
});
