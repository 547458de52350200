/**
 * The leaderboard's tables. One schema for both drivers (embedded PGlite and PostgreSQL);
 * `npx drizzle-kit generate` turns changes here into SQL migrations under drizzle/migrations.
 *
 * Episodes are the facts; agent_game_stats and agent_suite_stats are materialised aggregates
 * of them (recomputed inside the transaction that changes their inputs) so that the
 * leaderboard page reads a few hundred rows whatever the number of episodes.
 */
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { EpisodeRecord } from '../gym/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** The official settings of one game on an evaluation ticket, and the seeds drawn for it. */
export interface TicketGameColumns {
  gameId: string;
  gameVersion: string;
  verifierChecksum: string;
  stepBudget: number;
  msPerStep: number;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  seeds: number[];
}

/** What the server's replay of an episode ran on (the record's own identity fields, as replayed). */
export interface ReplayIdentityColumns {
  browser: { name: string; version: string };
  runtimeVersion: string;
  verifierChecksum: string;
}

/** What only the client knows about an episode: stored as claimed, shown as such. */
export interface ClaimedEpisodeColumns {
  browser: { name: string; version: string };
}

/** What a run was played with; shown next to every leaderboard entry. */
export interface RunSettingsColumns {
  observation: string[];
  actionSpace: 'discrete' | 'gui' | 'mixed';
  /** Null when the run's games differ (each played at its own budget). */
  stepBudget: number | null;
  msPerStep: number | null;
  /** Every episode was played at its game's official step budget and ms per step. */
  official: boolean;
  harness: string | null;
  model: string | null;
  codeVersion: string | null;
  /**
   * The agent acted through a game's own planner or read its own features (a game-specific preset,
   * as its training claimed): shown beside the observation, like ALE's RAM versus pixels. Absent
   * in agent settings stored before it existed (read as false).
   */
  gameSpecific?: boolean;
}

/** A policy run's checkpoint and how its play stands (leaderboard/policy-runs.ts). */
export interface PolicyRunColumns {
  checkpointSha256: string;
  algorithm: string;
  mode: 'greedy' | 'sample';
  /** The eval run on the job queue that plays it. */
  runId?: string;
  /** Why the play failed, when it did. */
  error?: string;
}

/** Where a live ticket is played: the base URL of its worker's listener, and the worker's id. */
export interface LiveHostColumns {
  url: string;
  worker: string;
}

/** What a live ticket's player claimed about its agent (leaderboard/submission-schema.ts: LiveClaims). */
export interface LiveClaimsColumns {
  harness?: string;
  model?: string;
  codeVersion?: string;
  training?: TrainingColumns;
  learningCurve?: LearningCurvePointColumns[];
}

/** One point of a training run's learning curve, as the client sent it (leaderboard/submission-schema.ts: LearningCurvePoint). */
export interface LearningCurvePointColumns {
  step: number;
  meanReturn: number;
  update?: number;
  meanLength?: number;
  policyLoss?: number;
  valueLoss?: number;
  entropy?: number;
  approxKl?: number;
  explainedVariance?: number;
  learningRate?: number;
}

/** How a trained agent was trained, as the client claimed it (submission-schema.ts: TrainingSettings). */
export interface TrainingColumns {
  algorithm: string;
  backend: string;
  totalTimesteps: number;
  checkpointSha256: string;
  config: Record<string, unknown>;
  /** Its preset was game-specific (submission-schema.ts: TrainingSettings.gameSpecific); absent in runs stored before it existed. */
  gameSpecific?: boolean;
}

/** A game as the server knows it: the built catalog entry it verifies against. */
export const games = pgTable('games', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  version: text('version').notNull(),
  verifierChecksum: text('verifier_checksum').notNull(),
  stepBudget: integer('step_budget').notNull(),
  msPerStep: doublePrecision('ms_per_step').notNull(),
  suites: jsonb('suites').$type<string[]>().notNull(),
  /** The manifest's provisional human reference, kept for when no verified human play exists. */
  manifestHumanReference: jsonb('manifest_human_reference').$type<{ score: number; provenance: string; stepBudget: number }>().notNull(),
  /** In the catalog the server runs now; inactive games keep their history but leave the suites. */
  active: boolean('active').notNull().default(true),
  updatedAt: updatedAt(),
});

/**
 * Reference scores a game's normalised scores are computed against. kind "human" (100 on the
 * normalised scale) always exists; kind "random" (0 on the ALE scale) once the random baseline ran.
 */
export const gameReferences = pgTable(
  'game_references',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['human', 'random'] }).notNull(),
    score: doublePrecision('score').notNull(),
    /** "provisional": the manifest's estimate; "verified": the mean of verified episodes. */
    status: text('status', { enum: ['provisional', 'verified'] }).notNull(),
    provenance: text('provenance').notNull(),
    stepBudget: integer('step_budget').notNull(),
    episodes: integer('episodes').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.kind] })],
);

/** API tokens. Only the sha256 of a token is stored; the token itself is shown once. */
export const apiTokens = pgTable('api_tokens', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  /** The first characters of the token, so a person can tell their tokens apart. */
  tokenPrefix: text('token_prefix').notNull(),
  /** Admin tokens may also submit human reference episodes. */
  admin: boolean('admin').notNull().default(false),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Evaluation tickets: seeds the server drew for a token, with the official settings to play them
 * at. Only a run that plays every seed of an unexpired ticket, once and completely, is ranked.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    /** Null for the server's own tickets (the seeded baselines). */
    tokenId: integer('token_id').references(() => apiTokens.id),
    purpose: text('purpose', { enum: ['evaluation', 'human', 'baseline'] }).notNull(),
    /** What was asked for, in words ("suite core", "game snake"). */
    scope: text('scope').notNull(),
    games: jsonb('games').$type<TicketGameColumns[]>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The submission that used the ticket: a ticket is used once. */
    submissionId: text('submission_id').unique(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /**
     * "seeds": the holder is given the seeds and submits records; "live": the server plays the
     * episodes in sessions of its own and the seeds stay hidden until the ticket is closed;
     * "policy": the server's workers play a checkpoint the holder handed over (policy-runs.ts),
     * the seeds hidden as for a live ticket.
     */
    mode: text('mode', { enum: ['seeds', 'live', 'policy'] })
      .notNull()
      .default('seeds'),
    /** A live ticket's agent and what it observes (a seeds ticket names them in its submission). */
    live: jsonb('live').$type<{
      agent: string;
      observation: string[];
      stepDeadlineMs?: number;
      pixels?: { width: number; height: number; grayscale: boolean };
      claims?: LiveClaimsColumns;
      policy?: PolicyRunColumns;
      /** The worker playing a live ticket (leaderboard/live-play.ts): where its listener answers. */
      host?: LiveHostColumns;
      /** Positions of the live episodes that were reset, in order (an episode is reset once, on whichever worker). */
      started?: number[];
      /** Episodes a worker cut off (it stopped or died mid-episode), played again on fresh seeds: the seeds they had, and why. */
      redrawn?: { position: number; seed: number; reason: string }[];
    }>(),
    /** When a live ticket was closed (its seeds may be disclosed from then on). */
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('tickets_token_idx').on(t.tokenId, t.createdAt)],
);

/**
 * A live ticket's episodes as the server played them: one row per (game, seed) of the ticket,
 * written when the episode ends (complete, or truncated with the cause: the client gave up, went
 * idle, the server stopped), so a client that disconnects loses nothing already played.
 */
export const liveEpisodes = pgTable(
  'live_episodes',
  {
    ticketId: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** Order on the ticket: its games in order, each game's seeds in order. */
    position: integer('position').notNull(),
    gameId: text('game_id').notNull(),
    record: jsonb('record').$type<EpisodeRecord>().notNull(),
    cause: jsonb('cause').$type<{ code: string; message: string }>(),
    endedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.position] })],
);

/** Every seed ever put on a ticket, per game: a seed is drawn once, so nobody has seen it before. */
export const ticketSeeds = pgTable(
  'ticket_seeds',
  {
    gameId: text('game_id').notNull(),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.seed] })],
);

export const agents = pgTable('agents', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  /**
   * The name as compared (leaderboard/agent-names.ts: case, confusables and separators folded), so
   * that no two agents have names a reader cannot tell apart. Rows that already clashed when it was
   * added keep their name and data; theirs is suffixed "~<id>" (0005), so the name goes to the first.
   */
  canonicalName: text('canonical_name').notNull().unique(),
  /** "baseline": run by the server itself (seed script); "submitted": through the API. */
  kind: text('kind', { enum: ['baseline', 'submitted'] }).notNull(),
  /** The token that created the agent; only it may submit under this name. Null for baselines. */
  tokenId: integer('token_id').references(() => apiTokens.id),
  /** Settings of the agent's latest run, shown on the leaderboard. */
  settings: jsonb('settings').$type<RunSettingsColumns>(),
  createdAt: createdAt(),
});

export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    /** The client's idempotency id: the same (token, id) always gives the same answer. */
    clientId: text('client_id').notNull(),
    tokenId: integer('token_id').references(() => apiTokens.id),
    /** The agent that played; null for human reference play (see player). */
    agentId: integer('agent_id').references(() => agents.id),
    player: text('player'),
    kind: text('kind', { enum: ['evaluation', 'training', 'human'] }).notNull(),
    observation: jsonb('observation').$type<string[]>().notNull(),
    actionSpace: text('action_space', { enum: ['discrete', 'gui', 'mixed'] }).notNull(),
    /** Null when the run's games were played at different budgets (each its own). */
    stepBudget: integer('step_budget'),
    msPerStep: doublePrecision('ms_per_step'),
    official: boolean('official').notNull(),
    harness: text('harness'),
    model: text('model'),
    codeVersion: text('code_version'),
    /** The agent acted through a game's own planner or read its own features (RunSettingsColumns.gameSpecific); as claimed. */
    gameSpecific: boolean('game_specific').notNull().default(false),
    /** The games the run's episodes are on (one for most runs; a suite evaluation has several). */
    gameIds: jsonb('game_ids').$type<string[]>().notNull(),
    /** The evaluation ticket the run played; null: self-seeded (never ranked). */
    ticketId: text('ticket_id').references(() => tickets.id),
    /** Why the run as a whole is not ranked (no ticket, ticket seeds left unplayed, …); null when it is. */
    unrankedReason: text('unranked_reason'),
    /** Training runs may send their learning curve: mean episode return (and other metrics) by environment step; as claimed. */
    learningCurve: jsonb('learning_curve').$type<LearningCurvePointColumns[]>(),
    /** How a trained agent was trained (algorithm, backend, checkpoint sha256, resolved config); as claimed. Null for other runs. */
    training: jsonb('training').$type<TrainingColumns>(),
    /** sha256 of the canonical submission, to tell a retry from a different run reusing an id. */
    bodyHash: text('body_hash').notNull(),
    /** The answer given when the run was accepted, replayed for retries. */
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    episodeCount: integer('episode_count').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('runs_token_client_id').on(t.tokenId, t.clientId).nullsNotDistinct(), index('runs_agent_idx').on(t.agentId, t.createdAt)],
);

export const episodes = pgTable(
  'episodes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    gameVersion: text('game_version').notNull(),
    verifierChecksum: text('verifier_checksum').notNull(),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    score: doublePrecision('score').notNull(),
    length: integer('length').notNull(),
    terminated: boolean('terminated').notNull(),
    truncated: boolean('truncated').notNull(),
    stepBudget: integer('step_budget').notNull(),
    msPerStep: doublePrecision('ms_per_step').notNull(),
    /** The run's evaluation ticket (null: self-seeded). */
    ticketId: text('ticket_id').references(() => tickets.id),
    /**
     * Passes the protocol when stored: a ticketed run that played every ticket seed once, and this
     * episode complete (terminated, or truncated at the official budget) at the official settings.
     */
    eligible: boolean('eligible').notNull().default(false),
    /** Whether the episode counts: eligible, and on the game build the server has now. */
    ranked: boolean('ranked').notNull(),
    /** Why it does not count (null when ranked). */
    unrankedReason: text('unranked_reason'),
    /**
     * "verified": replayed step by step by the server, and stored as replayed;
     * "server-run": an early baseline recorded by the server's gym and never replayed (never ranked).
     */
    verification: text('verification', { enum: ['verified', 'server-run'] }).notNull(),
    verificationReason: text('verification_reason').notNull(),
    /** What the replay ran on; null for rows stored before replays were recorded. */
    replay: jsonb('replay').$type<ReplayIdentityColumns>(),
    /** What the client claimed and the replay cannot check (its browser). */
    claimed: jsonb('claimed').$type<ClaimedEpisodeColumns>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('episodes_agent_game_idx').on(t.agentId, t.gameId),
    index('episodes_game_score_idx').on(t.gameId, t.score.desc()),
    index('episodes_run_idx').on(t.runId),
  ],
);

/**
 * Submissions on their way in: received and checked, then verified by the queue. The row is the
 * idempotency record of (token, client id) and holds the answer once verification is done.
 */
export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    tokenId: integer('token_id').references(() => apiTokens.id),
    clientId: text('client_id').notNull(),
    /** sha256 of the canonical submission, to tell a retry from a different run reusing an id. */
    bodyHash: text('body_hash').notNull(),
    ticketId: text('ticket_id').references(() => tickets.id),
    status: text('status', { enum: ['queued', 'verifying', 'accepted', 'rejected'] }).notNull(),
    /** The submission as received (validated again when read), until verification is done with it. */
    body: jsonb('body').$type<Record<string, unknown>>(),
    episodes: integer('episodes').notNull(),
    steps: integer('steps').notNull(),
    /** Episodes replayed so far. */
    verified: integer('verified').notNull().default(0),
    /** Wall-clock milliseconds verification may take once started. */
    budgetMs: integer('budget_ms').notNull(),
    runId: text('run_id').references(() => runs.id),
    /** Accepted: the stored run (AcceptedRun). Rejected: { error: { code, message, details? } }. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [unique('submissions_token_client_id').on(t.tokenId, t.clientId).nullsNotDistinct(), index('submissions_status_idx').on(t.status, t.createdAt)],
);

/** Full episode records, apart from the narrow episodes table the pages query. */
export const episodeRecords = pgTable('episode_records', {
  episodeId: integer('episode_id')
    .primaryKey()
    .references(() => episodes.id, { onDelete: 'cascade' }),
  record: jsonb('record').$type<EpisodeRecord>().notNull(),
});

/**
 * People who play for the human references. A visitor of /play names themself and gets a key
 * (only its sha256 is kept) that their later tickets must show; their episodes count for a
 * reference once an admin accepts them. A name an admin token submitted play for is accepted
 * and has no key, so no visitor can play under it.
 */
export const humanPlayers = pgTable('human_players', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  /** The agent names' canonical form (agent-names.ts): look-alike names are one player. */
  canonicalName: text('canonical_name').notNull().unique(),
  keyHash: text('key_hash'),
  status: text('status', { enum: ['candidate', 'accepted', 'rejected'] })
    .notNull()
    .default('candidate'),
  createdAt: createdAt(),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Verified human play: a game's human reference is made from its accepted players' episodes at
 * its step budget (scoring.ts, humanReference).
 */
export const humanEpisodes = pgTable(
  'human_episodes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    player: text('player').notNull(),
    playerId: integer('player_id')
      .notNull()
      .references(() => humanPlayers.id),
    gameVersion: text('game_version').notNull(),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    score: doublePrecision('score').notNull(),
    length: integer('length').notNull(),
    stepBudget: integer('step_budget').notNull(),
    msPerStep: doublePrecision('ms_per_step').notNull(),
    verification: text('verification', { enum: ['verified'] }).notNull(),
    verificationReason: text('verification_reason').notNull(),
    ticketId: text('ticket_id').references(() => tickets.id),
    /** Counts for the human reference: ticketed, complete, at the official settings. */
    ranked: boolean('ranked').notNull().default(false),
    unrankedReason: text('unranked_reason'),
    replay: jsonb('replay').$type<ReplayIdentityColumns>(),
    claimed: jsonb('claimed').$type<ClaimedEpisodeColumns>(),
    /** The record as the server replayed it. */
    record: jsonb('record').$type<EpisodeRecord>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('human_episodes_game_idx').on(t.gameId, t.stepBudget)],
);

/** Materialised: one agent on one game, over its ranked episodes (seed means, then mean ± std). */
export const agentGameStats = pgTable(
  'agent_game_stats',
  {
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    episodes: integer('episodes').notNull(),
    seeds: integer('seeds').notNull(),
    meanScore: doublePrecision('mean_score').notNull(),
    stdScore: doublePrecision('std_score').notNull(),
    bestScore: doublePrecision('best_score').notNull(),
    /** 100 × mean ÷ human reference; null when the reference is 0. */
    normalised: doublePrecision('normalised'),
    /** 100 × (mean − random) ÷ (human − random); null without a random reference. */
    aleNormalised: doublePrecision('ale_normalised'),
    /** Every counted episode was replayed by the server. */
    replayVerified: boolean('replay_verified').notNull(),
    /** Every counted episode came from a run on an evaluation ticket. */
    ticketed: boolean('ticketed').notNull().default(false),
    /**
     * Seeds of tickets the agent's token drew for this game and did not turn into ranked episodes
     * (leaderboard/ticket-draws.ts): counted in seeds and the mean at the forfeit score, so drawing
     * tickets until one goes well gains nothing.
     */
    forfeitedSeeds: integer('forfeited_seeds').notNull().default(0),
    /**
     * Every counted episode was played by the server on seeds its player never saw before the play:
     * a live ticket, a policy run, or a baseline the server ran itself. Known-seed tickets can be
     * searched offline; the default board ranks only what cannot (leaderboard/README.md, Ranking).
     */
    serverPlayed: boolean('server_played').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.gameId] }), index('agent_game_stats_game_idx').on(t.gameId, t.normalised)],
);

/** Materialised: one agent over one suite. Incomplete agents have no mean (never averaged over fewer games). */
export const agentSuiteStats = pgTable(
  'agent_suite_stats',
  {
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    suite: text('suite').notNull(),
    /** Games of the suite with enough seeds to count. */
    gamesCounted: integer('games_counted').notNull(),
    suiteGames: integer('suite_games').notNull(),
    complete: boolean('complete').notNull(),
    meanNormalised: doublePrecision('mean_normalised'),
    meanAleNormalised: doublePrecision('mean_ale_normalised'),
    /** Every cell counted in the suite is server-played (agent_game_stats.server_played). */
    serverPlayed: boolean('server_played').notNull().default(false),
    /**
     * A complete entry's IQM of its (game, seed) human-normalised scores and its 95 % stratified-bootstrap
     * interval (uncertainty.ts), kept here so that a page does not bootstrap; null for an incomplete one.
     */
    iqm: doublePrecision('iqm'),
    iqmLow: doublePrecision('iqm_low'),
    iqmHigh: doublePrecision('iqm_high'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.suite] }), index('agent_suite_stats_rank_idx').on(t.suite, t.complete, t.meanNormalised)],
);
