/** Scoring on fixed data: normalisation, seeds, suite means, incomplete agents, human references. */
import { describe, expect, it } from 'vitest';
import { cellStats, humanReference, MIN_REFERENCE_PLAYERS, MIN_SEEDS, normalise, suiteSummary } from './scoring';

describe('normalise', () => {
  it('puts the human reference at 100 and, with a random reference, random at 0', () => {
    expect(normalise(50, { human: 200 })).toEqual({ normalised: 25, aleNormalised: null });
    const r = normalise(50, { human: 200, random: 20 });
    expect(r.normalised).toBe(25);
    expect(r.aleNormalised).toBeCloseTo((100 * 30) / 180, 12);
    expect(normalise(20, { human: 200, random: 20 }).aleNormalised).toBe(0);
    expect(normalise(200, { human: 200, random: 20 }).aleNormalised).toBe(100);
  });

  it('has no number rather than an infinite one when a reference is degenerate', () => {
    expect(normalise(5, { human: 0 }).normalised).toBeNull();
    expect(normalise(5, { human: 10, random: 10 }).aleNormalised).toBeNull();
  });
});

describe('cellStats', () => {
  it('gives mean ± sample std over seeds', () => {
    const s = cellStats([
      { seed: 1, score: 2 },
      { seed: 2, score: 4 },
      { seed: 3, score: 9 },
    ])!;
    expect(s.meanScore).toBe(5);
    expect(s.stdScore).toBeCloseTo(Math.sqrt((9 + 1 + 16) / 2), 12);
    expect(s).toMatchObject({ seeds: 3, episodes: 3, bestScore: 9 });
  });

  it('averages repeats of a seed first, so re-rolling a seed does not help', () => {
    const honest = cellStats([
      { seed: 1, score: 0 },
      { seed: 2, score: 10 },
    ])!;
    const rerolled = cellStats([
      { seed: 1, score: 0 },
      { seed: 1, score: 100 },
      { seed: 1, score: 2 },
      { seed: 2, score: 10 },
    ])!;
    expect(honest.meanScore).toBe(5);
    expect(rerolled.meanScore).toBeCloseTo((34 + 10) / 2, 12);
    expect(rerolled).toMatchObject({ seeds: 2, episodes: 4, bestScore: 100 });
    expect(cellStats([])).toBeNull();
    expect(cellStats([{ seed: 0, score: 3 }])!.stdScore).toBe(0);
  });
});

describe('suiteSummary', () => {
  const cell = (gameId: string, normalised: number | null, seeds = MIN_SEEDS, aleNormalised: number | null = null) => ({
    gameId,
    seeds,
    normalised,
    aleNormalised,
  });

  it('means over every game of the suite', () => {
    const s = suiteSummary(['a', 'b'], [cell('a', 40, 3, 10), cell('b', 80, 5, 30), cell('other', 1000)]);
    expect(s).toEqual({ suiteGames: 2, gamesCounted: 2, complete: true, missing: [], meanNormalised: 60, meanAleNormalised: 20 });
  });

  it('marks an agent missing a game incomplete instead of averaging fewer games', () => {
    const s = suiteSummary(['a', 'b', 'c'], [cell('a', 90), cell('b', 90)]);
    expect(s).toMatchObject({ complete: false, gamesCounted: 2, missing: ['c'], meanNormalised: null, meanAleNormalised: null });
  });

  it('does not count a game played from fewer than three seeds, or without a usable reference', () => {
    expect(suiteSummary(['a', 'b'], [cell('a', 50), cell('b', 50, 2)])).toMatchObject({ complete: false, missing: ['b'] });
    expect(suiteSummary(['a', 'b'], [cell('a', 50), cell('b', null)])).toMatchObject({ complete: false, missing: ['b'] });
  });

  it('has an ALE mean only when every game has a random reference', () => {
    expect(suiteSummary(['a', 'b'], [cell('a', 50, 3, 10), cell('b', 50)]).meanAleNormalised).toBeNull();
    expect(suiteSummary([], []).complete).toBe(false);
  });
});

describe('humanReference', () => {
  const manifest = { score: 120, provenance: 'Provisional: estimated by the author', stepBudget: 100 };

  it('is the provisional manifest value until verified human play exists at the step budget', () => {
    expect(humanReference(manifest, 100, [])).toMatchObject({ score: 120, status: 'provisional', provenance: manifest.provenance, episodes: 0 });
    expect(humanReference(manifest, 100, [{ seed: 0, score: 500, stepBudget: 50, player: 'x' }]).status).toBe('provisional');
  });

  it('then is the mean of that play, still provisional while fewer than five players have played', () => {
    const r = humanReference(manifest, 100, [
      { seed: 0, score: 90, stepBudget: 100, player: 'sam' },
      { seed: 1, score: 110, stepBudget: 100, player: 'ada' },
      { seed: 2, score: 999, stepBudget: 300, player: 'ada' },
    ]);
    expect(r).toMatchObject({ score: 100, status: 'provisional', stepBudget: 100, episodes: 2 });
    expect(r.provenance).toMatch(/Mean of 2 verified human episodes .* at 100 steps.*ada, sam.*until 5 accepted players.*\(2 so far\)/);
  });

  it(`is the median of the episodes, verified, from ${MIN_REFERENCE_PLAYERS} players on`, () => {
    const players = ['a', 'b', 'c', 'd'];
    const four = players.map((player, i) => ({ seed: i, score: 10 * (i + 1), stepBudget: 100, player }));
    // An outlier moves a mean, not the median: a second episode of one player counts as an episode.
    const episodes = [...four, { seed: 9, score: 1000, stepBudget: 100, player: 'a' }];
    expect(humanReference(manifest, 100, episodes).status).toBe('provisional');
    const r = humanReference(manifest, 100, [...episodes, { seed: 5, score: 35, stepBudget: 100, player: 'e' }]);
    // 10, 20, 30, 35, 40, 1000: the mean of the middle two, where the mean would be 189.
    expect(r).toMatchObject({ score: 32.5, status: 'verified', episodes: 6 });
    expect(r.provenance).toMatch(/^Median of 6 verified human episodes by 5 accepted players at 100 steps.*a, b, c, d, e\.$/);
    // Without the outlier: 10 … 60.
    expect(
      humanReference(manifest, 100, [...four, { seed: 5, score: 50, stepBudget: 100, player: 'e' }, { seed: 6, score: 60, stepBudget: 100, player: 'e' }])
        .score,
    ).toBe(35);
  });
});
