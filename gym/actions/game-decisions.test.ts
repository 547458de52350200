/**
 * The generic side of action sets: the schema still reads what presets, config.json files and
 * checkpoints hold; a game's decisions module is checked as the build records it; the catalog
 * lists each game's action sets, and asking a game for one it lacks names those it has.
 */
import { describe, expect, it } from 'vitest';
import { getGame, loadCatalog } from '../catalog';
import { ActionSet, actionSetsOf, describeActionSet, gameSpecificActions, loadGameDecisions, macroPlannerFor, offeredKinds } from './index';
import { importGameDecisions } from './node-decisions';

describe('ActionSet', () => {
  it('reads the action sets presets, config.json files and checkpoints hold', () => {
    for (const a of [{ kind: 'preset' }, { kind: 'preset', observation: 'afterstates' }, { kind: 'placement', observation: 'afterstates' }, { kind: 'drop' }]) {
      expect(ActionSet.parse(a)).toEqual(a);
    }
    expect(ActionSet.parse({ kind: 'placement', observation: 'verifier' })).toEqual({ kind: 'placement', observation: 'verifier' });
  });

  it('names what is wrong with a bad one', () => {
    const message = (x: unknown) =>
      ActionSet.safeParse(x)
        .error?.issues.map((i) => i.message)
        .join('; ');
    expect(message('placement')).toMatch(/actions must be an object such as \{"kind": "preset"\}/);
    expect(message({ kind: 'Placement!' })).toMatch(/actions.kind must be an action set name/);
    expect(message({ kind: 'placement', cols: 5 })).toMatch(/"cols"/);
    expect(message({ kind: 'placement', observation: 'board' })).toMatch(/verifier or afterstates/);
  });

  it('is game-specific for anything but the preset read through the verifier', () => {
    expect([undefined, { kind: 'preset' }, { kind: 'preset', observation: 'verifier' as const }].map(gameSpecificActions)).toEqual([false, false, false]);
    expect([{ kind: 'preset', observation: 'afterstates' as const }, { kind: 'placement' }].map(gameSpecificActions)).toEqual([true, true]);
  });
});

describe("a game's decisions module", () => {
  it('the build recorded in the catalog what each module offers', async () => {
    const withDecisions = loadCatalog().games.filter((g) => g.decisions);
    expect(withDecisions.map((g) => g.manifest.id)).toEqual(
      expect.arrayContaining(['g2048', 'path-of-light', 'platformer', 'snake', 'tetris', 'wood-blocks-3d']),
    );
    for (const g of withDecisions) {
      const { script, ...kinds } = g.decisions!;
      expect(script).toBe(`/games/${g.manifest.id}/decisions.js`);
      expect(offeredKinds(await importGameDecisions(g.manifest.id), g.manifest.id)).toEqual(kinds);
    }
  });

  it('is checked for its shape', () => {
    const f = () => null;
    expect(() => offeredKinds(null, 'x.ts')).toThrow(/x.ts: its default export must be the game's decisions[\s\S]*got null/);
    expect(() => offeredKinds({ planner: {} }, 'x.ts')).toThrow(/unknown "planner"/);
    expect(() => offeredKinds({ planners: { drop: 3 } }, 'x.ts')).toThrow(/planners.drop must be a function/);
    expect(() => offeredKinds({ planners: { preset: f } }, 'x.ts')).toThrow(/"preset" is the game's own keys/);
    expect(() => offeredKinds({ afterstates: { drop: f } }, 'x.ts')).toThrow(/afterstates for drop, which it does not plan/);
    expect(() => offeredKinds({}, 'x.ts')).toThrow(/offers no action set/);
    expect(offeredKinds({ planners: { b: f, a: f }, afterstates: { a: f, preset: f } }, 'x.ts')).toEqual({
      planners: ['a', 'b'],
      afterstates: ['a', 'preset'],
    });
  });

  it("lists a game's action sets, and refuses one it lacks by naming those", async () => {
    expect(actionSetsOf(getGame('tetris')).map(describeActionSet)).toEqual([
      '{"kind":"preset"}',
      '{"kind":"placement"}',
      '{"kind":"placement","observation":"afterstates"}',
    ]);
    expect(actionSetsOf(getGame('sokoban'))).toEqual([{ kind: 'preset' }]);
    await expect(macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame('sokoban'))).rejects.toThrow(
      /actions \{"kind":"preset","observation":"afterstates"\} is not an action set of sokoban; it offers \{"kind":"preset"\}/,
    );
    await expect(macroPlannerFor({ kind: 'drop' }, getGame('tetris'))).rejects.toThrow(/not an action set of tetris; it offers .*\{"kind":"placement"\}/);
    await expect(loadGameDecisions(getGame('sokoban'))).rejects.toThrow(/sokoban has no decisions module/);
    // The preset's own keys need no module.
    expect(await macroPlannerFor({ kind: 'preset' }, getGame('sokoban'))).toBeNull();
  });

  it("observes the preset's own keys one decision per key", async () => {
    const snake = getGame('snake');
    const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, snake))!;
    expect(planner).toMatchObject({ numDecisions: 5, names: snake.manifest.preset.map((p) => p.name), singleKey: true });
    const c = planner.start(3, {});
    expect([c.next({}), c.next({})]).toEqual([3, null]);
    // A manifest whose preset changed is refused by the game's module, not read with the wrong rows.
    const renamed = { ...snake, manifest: { ...snake.manifest, id: 'snake', preset: [...snake.manifest.preset].reverse() } };
    await expect(macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, renamed)).rejects.toThrow(
      /afterstate features are for the preset keys up, right/,
    );
  });
});
