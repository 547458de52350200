/**
 * How raw episode scores become leaderboard numbers. Pure functions on plain data: the
 * materialised aggregates (leaderboard/aggregates.ts) are computed with these and nothing else.
 */
import { humanNormalised, mean, median, randomHumanNormalised, std } from '../gym/stats';

/** A game counts for an agent once it has been played from at least this many seeds. */
export const MIN_SEEDS = 3;

/**
 * Seeds a ticket draws per game unless it asks for another count, and what every baseline plays:
 * enough that an entry's 95 % interval tells it apart from another's on most games (measured in
 * leaderboard/README.md, Uncertainty), where MIN_SEEDS' intervals overlap on nearly all.
 */
export const DEFAULT_SEEDS_PER_GAME = 10;

/** The pseudo-suite of every game. */
export const ALL_GAMES_SUITE = 'all';

export interface ScoredEpisode {
  seed: number;
  score: number;
}

export interface CellStats {
  episodes: number;
  seeds: number;
  meanScore: number;
  /** Sample std over seeds (0 for one seed). */
  stdScore: number;
  bestScore: number;
}

/**
 * Mean ± std over seeds. Episodes of the same seed are averaged first: one seed is one sample,
 * and replaying a seed until it comes out lucky cannot move the number.
 */
export function cellStats(episodes: readonly ScoredEpisode[]): CellStats | null {
  if (episodes.length === 0) return null;
  const bySeed = new Map<number, number[]>();
  for (const e of episodes) {
    const list = bySeed.get(e.seed);
    if (list) list.push(e.score);
    else bySeed.set(e.seed, [e.score]);
  }
  const seedMeans = [...bySeed.values()].map(mean);
  return {
    episodes: episodes.length,
    seeds: bySeed.size,
    meanScore: mean(seedMeans),
    stdScore: std(seedMeans),
    bestScore: Math.max(...episodes.map((e) => e.score)),
  };
}

export interface References {
  human: number;
  /** The random agent's mean at the same step budget, when it has been run. */
  random?: number | null;
}

export interface Normalised {
  /** 100 × score ÷ human (human = 100). Null when the human reference is 0. */
  normalised: number | null;
  /** 100 × (score − random) ÷ (human − random). Null without a random reference, or when the two are equal. */
  aleNormalised: number | null;
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function normalise(score: number, refs: References): Normalised {
  return {
    normalised: finiteOrNull(humanNormalised(score, refs.human)),
    aleNormalised: refs.random == null ? null : finiteOrNull(randomHumanNormalised(score, refs.random, refs.human)),
  };
}

export interface SuiteCell {
  gameId: string;
  seeds: number;
  normalised: number | null;
  aleNormalised: number | null;
}

export interface SuiteSummary {
  suiteGames: number;
  /** Games of the suite with a normalised score from at least MIN_SEEDS seeds. */
  gamesCounted: number;
  complete: boolean;
  /** The games that keep the agent incomplete (missing, too few seeds, or no usable reference). */
  missing: string[];
  /** Mean normalised score over the suite; null unless complete (never averaged over fewer games). */
  meanNormalised: number | null;
  /** Mean ALE-normalised score; null unless complete and every game has a random reference. */
  meanAleNormalised: number | null;
}

export function cellCounts(cell: SuiteCell | undefined): cell is SuiteCell & { normalised: number } {
  return !!cell && cell.seeds >= MIN_SEEDS && cell.normalised !== null;
}

export function suiteSummary(suiteGameIds: readonly string[], cells: readonly SuiteCell[]): SuiteSummary {
  const byGame = new Map(cells.map((c) => [c.gameId, c]));
  const counted = suiteGameIds.map((g) => byGame.get(g)).filter(cellCounts);
  const missing = suiteGameIds.filter((g) => !cellCounts(byGame.get(g)));
  const complete = suiteGameIds.length > 0 && missing.length === 0;
  const ale = counted.map((c) => c.aleNormalised);
  return {
    suiteGames: suiteGameIds.length,
    gamesCounted: counted.length,
    complete,
    missing,
    meanNormalised: complete ? mean(counted.map((c) => c.normalised)) : null,
    meanAleNormalised: complete && ale.every((x) => x !== null) ? mean(ale as number[]) : null,
  };
}

export interface ManifestHumanReference {
  score: number;
  provenance: string;
  stepBudget: number;
}

export interface HumanReference {
  score: number;
  status: 'provisional' | 'verified';
  provenance: string;
  stepBudget: number;
  episodes: number;
}

/** Distinct accepted players a game's human reference needs before it stops being provisional. */
export const MIN_REFERENCE_PLAYERS = 5;

/**
 * The human reference, from accepted players' verified, ticketed episodes at the game's step
 * budget: once MIN_REFERENCE_PLAYERS players have one, the median of those episodes (verified);
 * with fewer, their mean over seeds, still provisional; with none, the manifest's provisional estimate.
 */
export function humanReference(
  manifest: ManifestHumanReference,
  stepBudget: number,
  acceptedHumanEpisodes: readonly (ScoredEpisode & { stepBudget: number; player: string })[],
): HumanReference {
  const same = acceptedHumanEpisodes.filter((e) => e.stepBudget === stepBudget);
  const stats = cellStats(same);
  if (!stats) return { score: manifest.score, status: 'provisional', provenance: manifest.provenance, stepBudget: manifest.stepBudget, episodes: 0 };
  const players = [...new Set(same.map((e) => e.player))].sort();
  const episodesWord = `${same.length} verified human episode${same.length === 1 ? '' : 's'}`;
  const who = `player${players.length === 1 ? '' : 's'}: ${players.join(', ')}`;
  if (players.length >= MIN_REFERENCE_PLAYERS) {
    return {
      score: median(same.map((e) => e.score)),
      status: 'verified',
      provenance: `Median of ${episodesWord} by ${players.length} accepted players at ${stepBudget} steps, replayed by the server; ${who}.`,
      stepBudget,
      episodes: same.length,
    };
  }
  return {
    score: stats.meanScore,
    status: 'provisional',
    provenance: `Mean of ${episodesWord} (${stats.seeds} seed${stats.seeds === 1 ? '' : 's'}) at ${stepBudget} steps, replayed by the server; ${who}. Provisional until ${MIN_REFERENCE_PLAYERS} accepted players have played (${players.length} so far).`,
    stepBudget,
    episodes: same.length,
  };
}
