import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../paths';
import { Catalog } from '../catalog-schema';
import { addExternalGame, type AddGameInput } from './add-game';
import { ExternalSource } from './source-record';

/**
 * `arcade-gym add-game` end to end, in child processes with their own registry and output
 * folders (ARCADE_EXTERNAL_DIR, ARCADE_PUBLIC_DIR), so the checkout's games-external/ and the
 * test run's catalog are left alone.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'arcade-add-game-'));
const EXAMPLES = path.join(ROOT, 'games-external');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/arcade-gym.mjs'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

function buildInChild(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build-games.ts')], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const readCatalog = (pub: string) => Catalog.parse(JSON.parse(readFileSync(path.join(pub, 'games/catalog.json'), 'utf8')));
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The mean score in `arcade-gym eval`'s table row for a game. */
const evalScore = (out: string, id: string) => Number(new RegExp(`${id}\\s+scripted\\s+1\\s+([\\d.]+)`).exec(out)?.[1] ?? NaN);

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe('arcade-gym add-game', () => {
  it('registers a game from a folder with checksums, builds it, checks it, and eval plays it', async () => {
    const src = path.join(scratch, 'downloads/mole');
    const files = path.join(scratch, 'wrapper');
    cpSync(path.join(EXAMPLES, 'mole-bop/game'), src, { recursive: true });
    mkdirSync(files, { recursive: true });
    for (const f of ['manifest.json', 'verifier.ts', 'scripted-agent.ts']) cpSync(path.join(EXAMPLES, 'mole-bop', f), path.join(files, f));
    const env = { ARCADE_EXTERNAL_DIR: path.join(scratch, 'registry'), ARCADE_PUBLIC_DIR: path.join(scratch, 'pub'), ARCADE_GAMES: 'mole-bop' };

    const origin = 'https://example.org/downloads/mole.zip';
    const added = await cli(
      [
        'add-game',
        src,
        '--manifest',
        path.join(files, 'manifest.json'),
        '--verifier',
        path.join(files, 'verifier.ts'),
        '--scripted-agent',
        path.join(files, 'scripted-agent.ts'),
        '--origin',
        origin,
      ],
      env,
    );
    expect(added.out).toMatch(/registered mole-bop/);
    expect(added.out).toMatch(/check: 5 steps in the gym; the verifier reads \{"score":0/);
    expect(added.code).toBe(0);

    const reg = path.join(scratch, 'registry/mole-bop');
    const record = JSON.parse(readFileSync(path.join(reg, 'source.json'), 'utf8'));
    // What others can reproduce: the folder's name and where it came from, never this machine's (temporary) path.
    expect(record.source).toEqual({ kind: 'folder', from: 'mole', origin });
    expect(readFileSync(path.join(reg, 'source.json'), 'utf8')).not.toContain(scratch);
    expect(record.files).toEqual({
      'index.html': sha(path.join(src, 'index.html')),
      'mole.js': sha(path.join(src, 'mole.js')),
      'style.css': sha(path.join(src, 'style.css')),
    });
    expect(existsSync(path.join(reg, 'verifier.ts')) && existsSync(path.join(reg, 'scripted-agent.ts'))).toBe(true);
    const entry = readCatalog(env.ARCADE_PUBLIC_DIR).games.find((g) => g.manifest.id === 'mole-bop')!;
    expect(entry.external).toEqual({ kind: 'folder', source: origin });
    expect(entry.url).toBeUndefined();
    // The game's files are served as they are, but for the runtime's tags first in the entry page's head.
    expect(readFileSync(path.join(env.ARCADE_PUBLIC_DIR, 'games/mole-bop/mole.js'), 'utf8')).toBe(readFileSync(path.join(src, 'mole.js'), 'utf8'));
    const served = readFileSync(path.join(env.ARCADE_PUBLIC_DIR, 'games/mole-bop/index.html'), 'utf8');
    const tags = '<script src="/runtime/arcade-runtime.js"></script><script src="/verifiers/mole-bop.js"></script>';
    expect(served.replace(tags, '')).toBe(readFileSync(path.join(src, 'index.html'), 'utf8'));
    expect(served.indexOf(tags)).toBe(served.indexOf('<head>') + '<head>'.length);

    const played = await cli(['eval', '--game', 'mole-bop', '--agent', 'scripted', '--episodes', '1', '--max-steps', '40'], env);
    expect(played.code).toBe(0);
    expect(evalScore(played.out, 'mole-bop')).toBeGreaterThan(0);

    // Registering the same id again needs --force.
    const again = await cli(
      ['add-game', src, '--manifest', path.join(files, 'manifest.json'), '--verifier', path.join(files, 'verifier.ts'), '--no-build'],
      env,
    );
    expect(again.code).toBe(2);
    expect(again.out).toMatch(/already registered.*--force/);

    // A changed file is caught at build time.
    appendFileSync(path.join(reg, 'game/mole.js'), '\n// patched\n');
    const rebuilt = await buildInChild(env);
    expect(rebuilt.code).not.toBe(0);
    expect(rebuilt.out).toMatch(/mole\.js changed/);
  });

  it('registers a game served from an http URL: the gym loads it from there with the runtime injected', async () => {
    const gameDir = path.join(EXAMPLES, 'fruit-catch/game');
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push(url.pathname);
      const rel = url.pathname.replace(/^\/arcade\/fruit\//, '');
      const file = path.join(gameDir, rel || 'index.html');
      if (!url.pathname.startsWith('/arcade/fruit/') || !file.startsWith(gameDir) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/arcade/fruit/index.html`;
    const env = { ARCADE_EXTERNAL_DIR: path.join(scratch, 'registry-url'), ARCADE_PUBLIC_DIR: path.join(scratch, 'pub-url'), ARCADE_GAMES: 'fruit-catch' };
    const wrapper = path.join(EXAMPLES, 'fruit-catch');

    // The config-file form, with paths relative to the file.
    const config = path.join(scratch, 'fruit-add.json');
    writeFileSync(
      config,
      JSON.stringify({
        source: url,
        manifest: path.relative(scratch, path.join(wrapper, 'manifest.json')),
        verifier: path.relative(scratch, path.join(wrapper, 'verifier.js')),
        scriptedAgent: path.relative(scratch, path.join(wrapper, 'scripted-agent.ts')),
      }),
    );
    const added = await cli(['add-game', '--config', config], env);
    expect(added.out, added.out).toMatch(/registered fruit-catch .*127\.0\.0\.1/);
    expect(added.code, added.out).toBe(0);
    const record = JSON.parse(readFileSync(path.join(scratch, 'registry-url/fruit-catch/source.json'), 'utf8'));
    expect(record.source).toEqual({ kind: 'url', url, entrySha256: sha(path.join(gameDir, 'index.html')) });
    expect(existsSync(path.join(scratch, 'registry-url/fruit-catch/game'))).toBe(false);
    const entry = readCatalog(env.ARCADE_PUBLIC_DIR).games.find((g) => g.manifest.id === 'fruit-catch')!;
    expect(entry.url).toBe(url);
    expect(entry.external?.kind).toBe('url');
    expect(existsSync(path.join(env.ARCADE_PUBLIC_DIR, 'games/fruit-catch'))).toBe(false);
    // The check step loaded the page and its scripts from the server.
    expect(requests).toEqual(expect.arrayContaining(['/arcade/fruit/index.html', '/arcade/fruit/draw.js', '/arcade/fruit/game.js']));

    const before = requests.length;
    const played = await cli(['eval', '--game', 'fruit-catch', '--agent', 'scripted', '--episodes', '1'], env);
    expect(played.code).toBe(0);
    expect(evalScore(played.out, 'fruit-catch')).toBeGreaterThan(0);
    expect(requests.length).toBeGreaterThan(before);
  });

  it('refuses a verifier whose state lacks gameOver or mistypes score, naming the field, and keeps what was registered', async () => {
    const fixture = path.join(ROOT, 'gym/external/fixtures/tap-start');
    const env = { ARCADE_EXTERNAL_DIR: path.join(scratch, 'registry-state'), ARCADE_PUBLIC_DIR: path.join(scratch, 'pub-state'), ARCADE_GAMES: 'tap-start' };
    const good = path.join(fixture, 'verifier.js');
    const verifier = readFileSync(good, 'utf8');
    const over = path.join(scratch, 'over-verifier.js');
    writeFileSync(over, verifier.replace("gameOver: win.phase === 'over'", "over: win.phase === 'over'"));
    const textScore = path.join(scratch, 'text-score-verifier.js');
    writeFileSync(textScore, verifier.replace('score: win.score,', 'score: String(win.score),'));
    const add = (v: string, ...flags: string[]) =>
      cli(['add-game', path.join(fixture, 'game'), '--manifest', path.join(fixture, 'manifest.json'), '--verifier', v, ...flags], env);
    const reg = path.join(env.ARCADE_EXTERNAL_DIR, 'tap-start');

    const refused = await add(over);
    expect(refused.out).toMatch(/add-game refused tap-start: its verifier's state is invalid, so it was not registered/);
    expect(refused.out).toMatch(/`gameOver` is missing \(a boolean\); the state has `score`, `over`/);
    expect(refused.code).toBe(2);
    expect(existsSync(reg)).toBe(false);
    expect(readCatalog(env.ARCADE_PUBLIC_DIR).games.map((g) => g.manifest.id)).toEqual([]);

    const registered = await add(good);
    expect(registered.code, registered.out).toBe(0);
    // Replacing it with a bad verifier is refused too, and the registration it would have replaced stays.
    const replaced = await add(textScore, '--force');
    expect(replaced.out).toMatch(/`score` is a string, expected a finite number/);
    expect(replaced.code).toBe(2);
    expect(readFileSync(path.join(reg, 'verifier.js'), 'utf8')).toBe(verifier);
    expect(readCatalog(env.ARCADE_PUBLIC_DIR).games.map((g) => g.manifest.id)).toEqual(['tap-start']);
    expect(readdirSync(env.ARCADE_EXTERNAL_DIR).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses bad input with messages that say what to fix, before touching the registry', async () => {
    const dir = path.join(scratch, 'bad');
    mkdirSync(dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(EXAMPLES, 'mole-bop/manifest.json'), 'utf8'));
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, id: 'bad-game' }));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><p>hi</p>');
    writeFileSync(
      path.join(dir, 'wrong-id.js'),
      `export default { gameId: 'other', read() { return null; }, features: { names: [], encode() { return []; } } };`,
    );
    writeFileSync(path.join(dir, 'not-verifier.js'), `export default { gameId: 'bad-game', read: 3 };`);
    writeFileSync(
      path.join(dir, 'touches-page.js'),
      `const el = document.body; export default { gameId: 'bad-game', read() { return el; }, features: { names: [], encode() { return []; } } };`,
    );
    writeFileSync(path.join(dir, 'bad-manifest.json'), JSON.stringify({ ...manifest, id: 'Bad Game', renderer: 'svg' }));
    const add = (over: Partial<AddGameInput>) =>
      addExternalGame({ source: dir, manifest: path.join(dir, 'manifest.json'), verifier: path.join(dir, 'wrong-id.js'), ...over });

    await expect(add({})).rejects.toThrow(/declares gameId "other" but the manifest's id is "bad-game"/);
    await expect(add({ verifier: path.join(dir, 'not-verifier.js') })).rejects.toThrow(/read\(win\) is not a function; features\.names is not an array/);
    await expect(add({ verifier: path.join(dir, 'touches-page.js') })).rejects.toThrow(/failed to load outside a page/);
    await expect(add({ manifest: path.join(dir, 'bad-manifest.json') })).rejects.toThrow(/id: ids are lower-case[\s\S]*renderer/);
    await expect(add({ source: path.join(dir, 'nowhere') })).rejects.toThrow(/neither a folder nor an http\(s\) URL/);
    await expect(add({ source: 'http://127.0.0.1:9/none.html', fetchTimeoutMs: 2000 })).rejects.toThrow(/could not fetch/);
    await expect(add({ manifest: path.join(EXAMPLES, 'mole-bop/manifest.json'), verifier: path.join(EXAMPLES, 'mole-bop/verifier.ts') })).rejects.toThrow(
      /a game "mole-bop" is already registered.*--force/,
    );
    expect(existsSync(path.join(EXAMPLES, 'bad-game'))).toBe(false);
  });

  it('source.json never holds an absolute path', () => {
    const files = {};
    expect(ExternalSource.safeParse({ schemaVersion: 1, id: 'x', source: { kind: 'folder', from: 'downloads/x' }, files }).success).toBe(true);
    const bad = ExternalSource.safeParse({ schemaVersion: 1, id: 'x', source: { kind: 'folder', from: '/tmp/arcade-123/x' }, files });
    expect(bad.error?.issues[0].message).toMatch(/never an absolute path/);
  });
});
