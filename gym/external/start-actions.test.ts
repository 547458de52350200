import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Games that need an input to start, and games that draw their first board in a later frame:
 * the manifest's `startActions` and `resetFrames`, on a small third-party fixture
 * (fixtures/tap-start: a title screen waiting for a click, then a board drawn from its second
 * frame). Three registrations of it in a scratch registry differ only in those two fields.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures/tap-start');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'arcade-start-actions-'));
const IDS = { plain: 'tap-start-plain', early: 'tap-start-early', full: 'tap-start' } as const;
const LIT = [240, 192, 32, 255];

// The gym's folders are read from the environment when its modules load: set them first, and
// put them back after, for test files that later share this worker.
const saved = Object.fromEntries(['ARCADE_EXTERNAL_DIR', 'ARCADE_PUBLIC_DIR', 'ARCADE_GAMES'].map((k) => [k, process.env[k]]));
process.env.ARCADE_EXTERNAL_DIR = path.join(scratch, 'registry');
process.env.ARCADE_PUBLIC_DIR = path.join(scratch, 'pub');
process.env.ARCADE_GAMES = Object.values(IDS).join(',');
const { addExternalGame } = await import('./add-game');
const { buildGames } = await import('../build/build-games');
const { useBrowser } = await import('../testing/harness');
const { canonicalJson } = await import('../schema/records');
const { verifyEpisode } = await import('../verify/resimulate');
const { smokeCheck } = await import('./smoke-check');
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const gym = useBrowser();

beforeAll(async () => {
  const base = JSON.parse(readFileSync(path.join(FIXTURE, 'manifest.json'), 'utf8'));
  const verifier = readFileSync(path.join(FIXTURE, 'verifier.js'), 'utf8');
  const variants = {
    [IDS.plain]: { startActions: undefined, resetFrames: undefined },
    [IDS.early]: { startActions: base.startActions, resetFrames: 1 },
    [IDS.full]: { startActions: base.startActions, resetFrames: base.resetFrames },
  };
  const game = path.join(scratch, 'downloads/tap-start');
  cpSync(path.join(FIXTURE, 'game'), game, { recursive: true });
  for (const [id, fields] of Object.entries(variants)) {
    const dir = path.join(scratch, 'wrappers', id);
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...base, id, ...fields }));
    writeFileSync(path.join(dir, 'verifier.js'), verifier.replace("gameId: 'tap-start'", `gameId: '${id}'`));
    await addExternalGame({ source: game, manifest: path.join(dir, 'manifest.json'), verifier: path.join(dir, 'verifier.js') });
  }
  await buildGames();
});

type Env = Awaited<ReturnType<typeof gym.env>>;
/** The RGBA of the game canvas at the centre of a board cell. */
const cellColour = (env: Env, cell: number) =>
  env.currentPage!.evaluate(
    ([x, y]) => Array.from(document.querySelector('canvas')!.getContext('2d')!.getImageData(x, y, 1, 1).data),
    [(cell % 4) * 60 + 30, Math.floor(cell / 4) * 60 + 30],
  );
const clickCell = (cell: number) => ({ type: 'click' as const, x: (cell % 4) * 60 + 30, y: Math.floor(cell / 4) * 60 + 30 });

describe('manifest startActions and resetFrames', () => {
  it('without them the reset shows the title screen: the game has not started', async () => {
    const env = await gym.env({ game: IDS.plain, seed: 3, observation: 'state' });
    const { info } = await env.reset();
    expect(info.state).toEqual({ score: 0, gameOver: false });
    expect(info.virtualTimeMs).toBeCloseTo(1000 / 60, 6);
  });

  it('a start click at reset starts the game, but one frame shows the board not yet drawn', async () => {
    const env = await gym.env({ game: IDS.early, seed: 3, observation: 'state' });
    const { info } = await env.reset();
    expect(info.state).toMatchObject({ score: 0, gameOver: false, drawn: false });
    expect(await cellColour(env, info.state.lit as number)).not.toEqual(LIT);
  });

  it('with resetFrames 2 the first observation shows the board; start actions are not steps, and records replay', async () => {
    const records = [];
    for (let run = 0; run < 2; run++) {
      const env = await gym.env({ game: IDS.full, seed: 3, observation: 'state', maxSteps: 2 });
      const { info } = await env.reset();
      expect(info.state).toMatchObject({ score: 0, gameOver: false, drawn: true, misses: 0 });
      expect(info.virtualTimeMs).toBeCloseTo(2000 / 60, 6);
      const lit = info.state.lit as number;
      expect(await cellColour(env, lit)).toEqual(LIT);

      const first = await env.step(clickCell(lit));
      expect(first.reward).toBe(1);
      expect(first.info.step).toBe(1);
      const last = await env.step({ type: 'wait' });
      expect(last.truncated).toBe(true);
      const record = last.info.episode!;
      expect(record.actions).toEqual([clickCell(lit), { type: 'wait' }]);
      expect(record.steps.map((s) => s.step)).toEqual([0, 1]);
      records.push(record);
    }
    expect(canonicalJson(records[1])).toBe(canonicalJson(records[0]));
    expect(await verifyEpisode(records[0], await gym.browser())).toMatchObject({ ok: true });
  });

  it("add-game's check says which manifest field each variant lacks", async () => {
    const plain = await smokeCheck(IDS.plain);
    expect(plain.state).toBeNull();
    expect(plain.startsOn).toBe('cell-0');
    expect(plain.warnings.join('\n')).toMatch(/nothing happens until an input.*"cell-0".*startActions/);
    const early = await smokeCheck(IDS.early);
    expect(early.startsOn).toBeNull();
    expect(early.warnings).toHaveLength(1);
    expect(early.warnings[0]).toMatch(/first observation is one flat colour.*resetFrames/);
    expect((await smokeCheck(IDS.full)).warnings).toEqual([]);
  });
});
