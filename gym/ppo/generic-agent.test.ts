/**
 * The generic agent is one configuration: every game resolves to the same settings from it (the
 * game's id aside), its module names no game, and a game without a preset starts from it in the
 * CLI's resolution and in the page's alike.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog';
import { resolveRunSettings } from '../browser-train/settings';
import { GENERIC_AGENT, startingPreset } from './generic-agent';
import { configRecord, resolveTraining } from './training-run';

const games = loadCatalog().games.map((g) => g.manifest.id);
const resolveGeneric = (game: string) => resolveTraining({ start: startingPreset(game, true), flags: { game } });

describe('the generic agent', () => {
  it('resolves to the same settings on every game, the id aside', () => {
    const [first, ...rest] = games.map((game) => {
      const r = configRecord(resolveGeneric(game));
      return { ...r, command: { ...r.command, game: '·' } };
    });
    expect(first.agent).toBe('generic');
    expect(first.gameSpecific).toBe(false);
    expect(first.command).toMatchObject({ observation: 'vector', actions: { kind: 'preset' } });
    expect(first.ppo).toMatchObject({ maskActions: true });
    for (const [i, r] of rest.entries()) expect(r, games[i + 1]).toEqual(first);
  });

  it('names no game: its module holds no per-game branch', () => {
    const source = readFileSync(fileURLToPath(new URL('./generic-agent.ts', import.meta.url)), 'utf8');
    for (const game of games) expect(source, game).not.toMatch(new RegExp(`['"\`]${game}['"\`]`));
  });

  it('is where a game without a preset starts, with --generic, and in the page', () => {
    expect(startingPreset('no-such-game', false)).toEqual({ preset: GENERIC_AGENT, file: null, generic: true });
    expect(startingPreset('snake', false).generic).toBe(false);
    expect(startingPreset('snake', true)).toEqual({ preset: GENERIC_AGENT, file: null, generic: true });
    const page = resolveRunSettings('fruit-catch', null, null, {});
    const cli = resolveGeneric('fruit-catch');
    expect(page).toEqual({ command: cli.command, preset: null, agent: 'generic', ppo: cli.ppo });
  });
});
