import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GAMES_DIR } from '../paths';
import { EnvOptions } from '../env/options';
import { resolveAction } from '../env/resolve-action';
import { ArcadeGymError } from '../errors';
import { CreateSessionBody } from '../server/schemas';
import { GuiAction } from './action';
import { GameManifest } from './manifest';
import { EpisodeRecord, SCHEMA_VERSION } from './records';
import { SETTING_LIMITS } from './settings';

/** A well-formed episode record of one step; tests change one setting at a time. */
const record = {
  schemaVersion: SCHEMA_VERSION,
  kind: 'episode',
  gameId: 'snake',
  gameVersion: '1.0.0',
  verifierChecksum: 'a'.repeat(64),
  runtimeVersion: '1',
  seed: 3,
  stepBudget: 100,
  msPerStep: 100,
  viewport: { width: 400, height: 400 },
  deviceScaleFactor: 1,
  browser: { name: 'chromium', version: '150' },
  shaping: { perStep: 0, terminal: 0 },
  actions: [1],
  steps: [],
  totals: { score: 0, reward: 0, length: 1, terminated: false, truncated: false },
  finalFrameHash: 'x',
} as const;

const envAccepts = (o: Record<string, unknown>) => EnvOptions.safeParse({ game: 'snake', ...o }).success;
const recordAccepts = (o: Record<string, unknown>) => EpisodeRecord.safeParse({ ...record, ...o }).success;

describe('one schema for the settings an episode is played under', () => {
  it('the sample record is valid as it stands', () => {
    expect(EpisodeRecord.parse(record).deviceScaleFactor).toBe(1);
  });

  it('env options and episode records accept and refuse the same device scale factors, ms per step and step budgets', () => {
    const cases: [env: string, rec: string, values: number[]][] = [
      ['deviceScaleFactor', 'deviceScaleFactor', [0.5, 1, 2, 4, 4.01, 5, 0, -1]],
      ['msPerStep', 'msPerStep', [1, 16.5, 100, SETTING_LIMITS.msPerStep.max, SETTING_LIMITS.msPerStep.max + 1, 1e12, 0]],
      ['maxSteps', 'stepBudget', [1, 100, SETTING_LIMITS.stepBudget.max, SETTING_LIMITS.stepBudget.max + 1, 1.5, 0]],
    ];
    for (const [envKey, recordKey, values] of cases) {
      for (const v of values) expect(recordAccepts({ [recordKey]: v }), `${recordKey} = ${v}`).toBe(envAccepts({ [envKey]: v }));
    }
    // The cases that used to differ: a record claimed what no env could play.
    expect(recordAccepts({ deviceScaleFactor: 5 })).toBe(false);
    expect(recordAccepts({ msPerStep: 1e12 })).toBe(false);
  });

  it('a viewport is bounded in the record', () => {
    expect(recordAccepts({ viewport: { width: 4096, height: 300 } })).toBe(true);
    expect(recordAccepts({ viewport: { width: 1e9, height: 300 } })).toBe(false);
  });

  it('msPerStep and stepTimeoutMs have upper bounds in the env options and in the HTTP session body', () => {
    for (const schema of [EnvOptions, CreateSessionBody]) {
      expect(schema.safeParse({ game: 'snake', msPerStep: 1e12 }).success).toBe(false);
      expect(schema.safeParse({ game: 'snake', msPerStep: 150 }).success).toBe(true);
      expect(schema.safeParse({ game: 'snake', stepTimeoutMs: 1e9 }).success).toBe(false);
      expect(schema.safeParse({ game: 'snake', stepTimeoutMs: 5_000 }).success).toBe(true);
    }
    expect(EnvOptions.safeParse({ game: 'snake', resetTimeoutMs: 1e12 }).success).toBe(false);
  });
});

describe('GUI action coordinates are bounded', () => {
  const manifest = { id: 'snake', preset: [{ name: 'up', action: { type: 'key', key: 'ArrowUp' } }] } as unknown as GameManifest;
  const invalid = (action: unknown) => {
    try {
      resolveAction(manifest, action);
      return null;
    } catch (e) {
      return e instanceof ArcadeGymError ? e.code : String(e);
    }
  };

  it('a huge finite coordinate or scroll delta is an INVALID_ACTION, not something for the page to choke on', () => {
    expect(invalid({ type: 'click', x: 1e308, y: 10 })).toBe('INVALID_ACTION');
    expect(invalid({ type: 'click', x: 10, y: -1e308 })).toBe('INVALID_ACTION');
    expect(invalid({ type: 'drag', from: [0, 0], to: [1e308, 0] })).toBe('INVALID_ACTION');
    expect(invalid({ type: 'scroll', x: 1, y: 1, dy: 1e308 })).toBe('INVALID_ACTION');
    expect(invalid({ type: 'click', x: 200, y: -5 })).toBeNull();
    expect(invalid({ type: 'scroll', x: 1, y: 1, dy: -400 })).toBeNull();
    expect(GuiAction.safeParse({ type: 'click', x: Infinity, y: 0 }).success).toBe(false);
  });
});

describe('a game manifest cannot ask for settings an episode may not be played under', () => {
  const manifest = JSON.parse(readFileSync(path.join(GAMES_DIR, 'snake', 'manifest.json'), 'utf8'));

  it('accepts a shipped manifest', () => {
    expect(GameManifest.safeParse(manifest).success).toBe(true);
  });

  it.each([
    ['canvas.width', { canvas: { width: SETTING_LIMITS.viewport.max + 1, height: 400 } }],
    ['msPerStep', { msPerStep: SETTING_LIMITS.msPerStep.max * 10 }],
    ['stepBudget', { stepBudget: SETTING_LIMITS.stepBudget.max + 1 }],
  ])('refuses an out-of-bounds %s', (field, change) => {
    const parsed = GameManifest.safeParse({ ...manifest, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});
