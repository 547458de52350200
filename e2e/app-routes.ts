import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The site's routes, read from the app/ folder on disk the way Next.js reads it, so a page or
 * API route added later is found (and fuzzed) without anyone listing it.
 */

export type Segment = { kind: 'static'; name: string } | { kind: 'dynamic'; name: string } | { kind: 'catch-all'; name: string; optional: boolean };

export interface AppRoute {
  /** "/agents/[name]" */
  pattern: string;
  kind: 'page' | 'api';
  segments: Segment[];
  /** The HTTP methods a route handler exports; GET for pages. */
  methods: string[];
  /** Query parameter names its folder's code reads (`.get('src')`, `q.sort`). */
  queryKeys: string[];
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'app');
const PAGE_FILE = /^page\.(tsx|ts|jsx|js)$/;
const ROUTE_FILE = /^route\.(ts|js)$/;

function segmentOf(dir: string): Segment | null {
  // Route groups "(x)" and parallel-route slots "@x" add no path segment.
  if (/^\(.*\)$/.test(dir) || dir.startsWith('@')) return null;
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(dir);
  if (optional) return { kind: 'catch-all', name: optional[1], optional: true };
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(dir);
  if (catchAll) return { kind: 'catch-all', name: catchAll[1], optional: false };
  const dynamic = /^\[(.+)\]$/.exec(dir);
  if (dynamic) return { kind: 'dynamic', name: dynamic[1] };
  return { kind: 'static', name: dir };
}

function exportedMethods(source: string): string[] {
  return HTTP_METHODS.filter((m) => new RegExp(`export\\s+(?:async\\s+)?(?:function|const|let)\\s+${m}\\b|export\\s*\\{[^}]*\\b${m}\\b[^}]*\\}`).test(source));
}

function queryKeysIn(dir: string): string[] {
  const keys = new Set<string>();
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    if (!f.isFile() || !/\.(tsx?|jsx?)$/.test(f.name)) continue;
    const src = readFileSync(path.join(dir, f.name), 'utf8');
    for (const m of src.matchAll(/\.get(?:All)?\(\s*['"]([\w-]+)['"]\s*\)/g)) keys.add(m[1]);
    for (const m of src.matchAll(/\bq\.(\w+)\b/g)) keys.add(m[1]);
  }
  return [...keys].sort();
}

export function discoverRoutes(dir = APP_DIR, segments: Segment[] = []): AppRoute[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const routes: AppRoute[] = [];
  const pattern = `/${segments.map((s) => (s.kind === 'static' ? s.name : s.kind === 'dynamic' ? `[${s.name}]` : `[...${s.name}]`)).join('/')}`;
  for (const e of entries) {
    if (!e.isFile()) continue;
    if (PAGE_FILE.test(e.name)) routes.push({ pattern, kind: 'page', segments, methods: ['GET'], queryKeys: queryKeysIn(dir) });
    if (ROUTE_FILE.test(e.name)) {
      const methods = exportedMethods(readFileSync(path.join(dir, e.name), 'utf8'));
      routes.push({ pattern, kind: 'api', segments, methods, queryKeys: queryKeysIn(dir) });
    }
  }
  for (const e of entries) {
    // "_x" folders are private (not routes); node_modules never belongs here.
    if (!e.isDirectory() || e.name.startsWith('_') || e.name === 'node_modules') continue;
    const seg = segmentOf(e.name);
    routes.push(...discoverRoutes(path.join(dir, e.name), seg ? [...segments, seg] : segments));
  }
  return routes.sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
}

/** The route's path with every dynamic segment replaced by `value` (already URL-encoded as it should travel). */
export function fillRoute(route: AppRoute, value: string): string {
  return `/${route.segments.map((s) => (s.kind === 'static' ? encodeURIComponent(s.name) : value)).join('/')}`;
}
