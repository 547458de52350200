import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../gym/paths';
import { BASELINE_SEED_COUNT } from './baselines';

/**
 * A site's first start after `add-game` registered a game without a scripted agent (a
 * third-party game need not ship one): the seed script, in a child process as `npm start` runs
 * it, with its own registry, build and embedded database, seeds the random baseline, says once
 * that there is no scripted one, and reports no failure.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'arcade-seed-unscripted-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env: NodeJS.ProcessEnv = {
  ...process.env,
  ARCADE_EXTERNAL_DIR: path.join(scratch, 'registry'),
  ARCADE_PUBLIC_DIR: path.join(scratch, 'public'),
  ARCADE_DATA_DIR: path.join(scratch, 'data'),
  ARCADE_GAMES: 'tap-start',
  FORCE_COLOR: '0',
};
// The embedded database, as on a first `npm start`.
delete env.DATABASE_URL;

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('seeding a game without a scripted agent', () => {
  it('seeds the random baseline only, says so once, and fails nothing', async () => {
    const fixture = path.join(ROOT, 'gym/external/fixtures/tap-start');
    const added = await run([
      path.join(ROOT, 'bin/arcade-gym.mjs'),
      'add-game',
      path.join(fixture, 'game'),
      '--manifest',
      path.join(fixture, 'manifest.json'),
      '--verifier',
      path.join(fixture, 'verifier.js'),
      '--no-check',
    ]);
    expect(added.code, added.out).toBe(0);

    const seeded = await run(['--import', 'tsx', path.join(ROOT, 'scripts/seed-db.ts')]);
    expect(seeded.code, seeded.out).toBe(0);
    expect(seeded.out).not.toMatch(/FAILED|failed/);
    expect(seeded.out.match(/tap-start has no scripted agent/g), seeded.out).toHaveLength(1);
    expect(seeded.out).toMatch(/seed: tap-start has no scripted agent and no generic policy: seeding the random baseline only\n/);
    expect(seeded.out).toMatch(new RegExp(`\\[1/1\\] tap-start · random: mean .* replayed, ${BASELINE_SEED_COUNT} ranked`));
    expect(seeded.out).toMatch(/baselines done in .*: 1 run, 0 already there\n/);
  }, 300_000);
});
