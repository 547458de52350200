import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { checkoutFiles, ROOT } from './paths';

/**
 * Code outside gym/ imports the gym through the entry points listed in gym/README.md, never its
 * deep files, and the entry points marked browser-safe stay free of Node-only imports. The README
 * table is the one list: this test reads it, so the documentation cannot drift from what is allowed.
 * The other way round, gym/'s own code imports no game code (games/, games-external/).
 */

type Browser = 'yes' | 'trainer bundle' | 'no';
interface EntryPoint {
  subpath: string;
  browser: Browser;
}

/** Rows of the entry point table: | `gym/<name>` | yes / trainer bundle / no … | what it is | */
function readEntryPoints(): EntryPoint[] {
  const readme = readFileSync(path.join(ROOT, 'gym/README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\|\s*`(gym(?:\/[\w./-]+)?)`\s*\|([^|]+)\|/gm)];
  return rows.map(([, subpath, browser]) => {
    const b = browser.trim().split(' (')[0] as Browser;
    if (!['yes', 'trainer bundle', 'no'].includes(b)) throw new Error(`gym/README.md: "${subpath}" has browser column "${browser.trim()}"`);
    return { subpath, browser: b };
  });
}

/** Folders whose code is not this check's: gym itself, and verifiers, which are shipped (their checksums are in records). */
const EXEMPT = [path.join(ROOT, 'gym'), path.join(ROOT, 'verifiers')];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Every module specifier in a source: static and type imports, re-exports, side-effect and dynamic imports, require. */
function specifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...source.matchAll(re)].map((m) => m[1]));
}

/** The specifiers of `file` that reach into gym/ other than through an entry point. */
function deepImports(file: string, source: string, allowed: ReadonlySet<string>): string[] {
  return specifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const target = path
      .relative(ROOT, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/');
    return (target === 'gym' || target.startsWith('gym/')) && !allowed.has(target);
  });
}

/** Where the gym's own code may not reach: game code, which the gym finds through the catalog (gym/actions/README.md). */
const GAME_CODE = ['games', 'games-external'];

/** The specifiers of a gym/ file that reach into games/ or games-external/. */
function gameImports(file: string, source: string): string[] {
  return specifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const target = path
      .relative(ROOT, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/');
    return GAME_CODE.some((top) => target === top || target.startsWith(`${top}/`));
  });
}

/** Packages that drive or are a browser, a database or a build from Node: never in a page. */
const NODE_ONLY_PACKAGES = [
  'playwright-core',
  'playwright',
  'postgres',
  '@electric-sql/pglite',
  'pg-boss',
  'drizzle-orm',
  'ws',
  'esbuild',
  'webgpu',
  'tsx',
  'vitest',
];
const isNodeOnlyPackage = (p: string) => NODE_ONLY_PACKAGES.some((n) => p === n || p.startsWith(`${n}/`));

/**
 * What an entry point's static import graph reaches outside the project (`import()` is not
 * followed: Node-only code behind it loads only when called), each with the file that imports it.
 */
async function staticExternals(entryFile: string): Promise<Map<string, string>> {
  const { metafile } = await build({
    entryPoints: [entryFile],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    packages: 'external',
    outdir: path.join(ROOT, 'dist/entry-point-check'),
    logLevel: 'silent',
  });
  const inputs: Metafile['inputs'] = metafile.inputs;
  const start = path.relative(process.cwd(), entryFile).split(path.sep).join('/');
  const seen = new Set<string>();
  const externals = new Map<string, string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of inputs[file]?.imports ?? []) {
      if (imp.kind === 'dynamic-import') continue;
      if (imp.external) externals.set(imp.path, file);
      else stack.push(imp.path);
    }
  }
  return externals;
}

const entryFile = (subpath: string) => [`${subpath}.ts`, `${subpath}/index.ts`].map((f) => path.join(ROOT, f)).find((f) => existsSync(f));

describe('gym entry points', () => {
  const entries = readEntryPoints();
  const allowed = new Set(entries.map((e) => e.subpath));

  it('gym/README.md lists each entry point once, and each is a module', () => {
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBe(allowed.size);
    expect(entries.filter((e) => !entryFile(e.subpath)).map((e) => e.subpath)).toEqual([]);
  });

  it('finds deep imports in every form a source can write them', () => {
    const file = path.join(ROOT, 'cli/commands/example.ts');
    const source = [
      "import { a } from '../../gym/schema';",
      "import type { B } from '../../gym/schema/records';",
      "export { c } from '../../gym/env/env';",
      "import '../../gym/runtime';",
      "const d = await import('../../gym/ppo/train');",
      "import { e } from '../../gym/index';",
      "import { f } from '../../leaderboard/db';",
    ].join('\n');
    expect(deepImports(file, source, allowed)).toEqual([
      '../../gym/schema/records',
      '../../gym/env/env',
      '../../gym/index',
      '../../gym/runtime',
      '../../gym/ppo/train',
    ]);
  });

  it('code outside gym/ imports only the entry points', () => {
    const found = checkoutFiles(ROOT, SOURCE_FILE, EXEMPT).flatMap((file) =>
      deepImports(file, readFileSync(file, 'utf8'), allowed).map((spec) => `${path.relative(ROOT, file)}: '${spec}'`),
    );
    expect(found, 'deep imports of gym/ files: import the entry point that exports the name (gym/README.md), or add the name to one').toEqual([]);
  });

  it('finds imports of game code from gym/ in every form', () => {
    const file = path.join(ROOT, 'gym/actions/example.ts');
    const source = [
      "import { fits } from '../../games/wood-blocks-3d/logic';",
      "import type { V } from '../../games-external/x/verifier';",
      "export { a } from '../../games/shared/canvas';",
      "const d = await import('../../games/tetris/decisions');",
      "import { b } from '../core';",
      "import { c } from '../../verifiers/tetris';",
    ].join('\n');
    expect(gameImports(file, source)).toEqual([
      '../../games/wood-blocks-3d/logic',
      '../../games-external/x/verifier',
      '../../games/shared/canvas',
      '../../games/tetris/decisions',
    ]);
  });

  it("gym/'s own code (tests aside) imports nothing from games/ or games-external/", () => {
    const found = checkoutFiles(path.join(ROOT, 'gym'), SOURCE_FILE)
      .filter((file) => !/\.test\.[cm]?[jt]sx?$/.test(file))
      .flatMap((file) => gameImports(file, readFileSync(file, 'utf8')).map((spec) => `${path.relative(ROOT, file)}: '${spec}'`));
    expect(found, "gym/ finds a game's code through the catalog (games/<id>/decisions.ts, scripted-agent.ts), never by importing it").toEqual([]);
  });

  it('browser-safe entry points reach no Node built-in and no Node-only package', async () => {
    const problems: string[] = [];
    for (const e of entries.filter((x) => x.browser !== 'no')) {
      for (const [dep, importer] of await staticExternals(entryFile(e.subpath) as string)) {
        const builtin = isBuiltin(dep) || dep.startsWith('node:');
        // The trainer bundle stubs Node built-ins behind Node-only paths (gym/build/trainer-bundle.ts).
        if (isNodeOnlyPackage(dep) || (builtin && e.browser === 'yes')) problems.push(`${e.subpath} (${e.browser}): ${dep}, imported by ${importer}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
