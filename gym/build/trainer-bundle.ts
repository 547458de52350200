import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { PUBLIC_DIR, ROOT } from '../paths';

/** Where the in-page trainer goes (the site's /train/<game> page loads it). */
export const TRAINER_BUNDLE_PATH = path.join(PUBLIC_DIR, 'trainer', 'arcade-trainer.js');

/** Packages that drive or are a browser from Node: the page bundle must never contain them. */
const FORBIDDEN = ['playwright-core', 'playwright', 'postgres', '@electric-sql/pglite'];

/**
 * Node built-ins and the `webgpu` package (Dawn) appear only behind Node-only code paths of
 * shared modules (file writers, the preset loader, Node GPU acquisition): in the page they are
 * stubs that throw if called, which they never are there (navigator.gpu is the GPU). So is
 * gym/paths.ts, which works out the checkout's folders from its own file URL as it loads.
 */
const nodeOnlyStubs: Plugin = {
  name: 'node-only-stubs',
  setup(b) {
    b.onResolve({ filter: /^(node:.*|fs|path|url|os|crypto|module|webgpu)$/ }, (args) => ({ path: args.path, namespace: 'node-only' }));
    // The checkout's folders (gym/paths.ts) are computed from the module's file URL when it loads.
    b.onResolve({ filter: /\/paths$/ }, (args) =>
      path.resolve(args.resolveDir, args.path) === path.join(ROOT, 'gym/paths') ? { path: 'gym/paths', namespace: 'node-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'node-only' }, (args) => ({
      contents: `module.exports = new Proxy({}, { get: (_, key) => key === '__esModule' ? false : () => { throw new Error(${JSON.stringify(`${args.path} is Node-only and not available in the page`)} + ': ' + String(key)); } });`,
      loader: 'js',
    }));
    b.onResolve({ filter: new RegExp(`^(${FORBIDDEN.join('|').replace(/[.@/]/g, (c) => `\\${c}`)})(/|$)`) }, (args) => ({
      errors: [{ text: `the in-page trainer must not import ${args.path} (imported from ${path.relative(ROOT, args.importer)})` }],
    }));
  },
};

/** Bundles gym/browser-train/ for pages: one IIFE setting `globalThis.ArcadeTrainer`, no network at run time. */
export async function bundleTrainer(opts: { quiet?: boolean } = {}): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, 'gym/browser-train/index.ts')],
    outfile: TRAINER_BUNDLE_PATH,
    bundle: true,
    format: 'iife',
    globalName: 'ArcadeTrainer',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    minify: true,
    plugins: [nodeOnlyStubs],
    logLevel: opts.quiet ? 'silent' : 'warning',
    charset: 'utf8',
  });
}
