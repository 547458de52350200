import { z } from 'zod';
import { EnvOptions } from '../env/options';
import { Action } from '../schema/action';
import { EpisodeRecord, VerifierState } from '../schema/records';
import { StepTimeoutMs } from '../schema/settings';

/**
 * The HTTP gym API's bodies, as zod schemas: requests are validated with them, responses are
 * described by them (the tests check real responses against them), and openapi.ts turns
 * them into the OpenAPI document. No Node-only imports: the Next app can serve the document.
 */

// ---- requests ----

const IdleTimeoutMs = z
  .number()
  .int()
  .min(1_000)
  .max(3_600_000)
  .optional()
  .describe('The session is closed after being idle this long (server default otherwise)');

/** What infos carry beyond the step's numbers: each costs bytes on every step (a record is tens of KB). */
export const INFO_EXTRAS = ['state', 'record'] as const;
export type InfoExtra = (typeof INFO_EXTRAS)[number];
const Include = z
  .array(z.enum(INFO_EXTRAS))
  .max(INFO_EXTRAS.length)
  .describe(
    'What infos carry besides step, score, virtualTimeMs, actionMask and faults: "state" (the verifier state, on every reset and step) and "record" (the episode record, as info.episode on the step that ends it)',
  );

export const CreateSessionBody = EnvOptions.pick({
  game: true,
  seed: true,
  observation: true,
  pixels: true,
  screenshot: true,
  maxSteps: true,
  msPerStep: true,
  shaping: true,
  stickyActions: true,
  stickySeed: true,
})
  .extend({
    game: z.string().min(1).max(100).describe('A game id from GET /v1/games'),
    // Bounds come from the env's options (gym/schema/settings.ts); only the descriptions are the API's.
    maxSteps: EnvOptions.shape.maxSteps.describe("Step budget; defaults to the game's"),
    msPerStep: EnvOptions.shape.msPerStep.describe("Virtual milliseconds each step advances; defaults to the game's"),
    stepTimeoutMs: StepTimeoutMs.optional().describe('A step slower than this (wall clock) counts as a hung page: the page is rebuilt and the step retried'),
    idleTimeoutMs: IdleTimeoutMs,
    include: Include.default(['state', 'record']),
  })
  .describe('What to play and what each step returns');
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const ResetBody = z.strictObject({
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional()
    .describe("The episode's seed; without, the session's seeded sequence continues"),
});

export const StepBody = z.strictObject({
  action: z
    .union(Action.options, {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? 'expected a preset index (an integer >= 0, see actionSpace) or a GUI action object such as {"type":"key","key":"ArrowUp"}'
          : undefined,
    })
    .describe('A preset index (see actionSpace) or a GUI action'),
});

/** Most steps one batch may carry. */
export const MAX_BATCH_STEPS = 256;

export const BatchStepBody = z
  .strictObject({
    steps: z
      .array(z.strictObject({ session: z.string().min(1).max(100).describe('A session id'), action: StepBody.shape.action }))
      .min(1)
      .max(MAX_BATCH_STEPS)
      .refine((steps) => new Set(steps.map((s) => s.session)).size === steps.length, 'each session may appear only once in a batch'),
  })
  .describe('One step for each of several sessions, taken concurrently: a vector env over HTTP');

/** Most sub-envs one vector session may have. */
export const MAX_VECTOR_ENVS = MAX_BATCH_STEPS;

export const CreateVectorBody = CreateSessionBody.omit({ include: true, seed: true })
  .extend({
    numEnvs: z.number().int().min(1).max(MAX_VECTOR_ENVS).describe('Sub-envs, stepped together (several game instances per page where the game allows)'),
    seed: CreateSessionBody.shape.seed.describe("Sub-env i's first episode plays seed + i; later ones follow a seeded sequence of its own"),
    autoreset: z
      .enum(['next-step', 'same-step'])
      .default('next-step')
      .describe("Gymnasium 1.0's autoreset modes: a finished sub-env resets on the next step (its action ignored), or within the step that ended it"),
    include: Include.default([]),
  })
  .describe('A vector env of one game: what to play and what each step returns');
export type CreateVectorBody = z.infer<typeof CreateVectorBody>;

export const VectorResetBody = z.strictObject({
  seed: z
    .union([ResetBody.shape.seed.unwrap(), z.array(ResetBody.shape.seed.unwrap().nullable()).min(1).max(MAX_VECTOR_ENVS)])
    .optional()
    .describe('A number seeds sub-env i with seed + i and reseeds its sequence; a list gives each its own (null: its sequence goes on)'),
});

export const VectorStepBody = z.strictObject({
  actions: z
    .array(StepBody.shape.action)
    .min(1)
    .max(MAX_VECTOR_ENVS)
    .describe("One action per sub-env, in order (a finished sub-env's is ignored on its autoreset step)"),
});

// ---- responses ----

export const ErrorBody = z.strictObject({
  error: z.strictObject({
    code: z.string().describe('Stable, machine-readable: e.g. INVALID_BODY, SESSION_NOT_FOUND, BUSY'),
    message: z.string().describe('What went wrong and what to do, for a person'),
    retryAfterMs: z.number().int().optional().describe('BUSY only: when a retry has a fair chance (also in the Retry-After header, in seconds)'),
  }),
});

/** Bytes inline as base64 (JSON responses) or as a slice of the frame's payload (binary responses). */
const inline = { encoding: z.literal('base64'), data: z.string() };
const framed = { encoding: z.literal('binary'), offset: z.number().int().min(0), length: z.number().int().min(0) };
function withBytes<T extends z.ZodRawShape>(meta: T) {
  return z.discriminatedUnion('encoding', [z.strictObject({ ...meta, ...inline }), z.strictObject({ ...meta, ...framed })]);
}

export const PixelsJson = withBytes({
  width: z.number().int(),
  height: z.number().int(),
  channels: z.union([z.literal(1), z.literal(3)]),
  dtype: z.literal('uint8'),
}).describe('height × width × channels bytes, row-major');

export const ObservationJson = z
  .strictObject({
    state: VerifierState.optional().describe("The game's verifier state"),
    vector: z.array(z.number()).optional().describe('float32 features (names in the observation space)'),
    pixels: PixelsJson.optional(),
    screenshot: withBytes({ format: z.enum(['png', 'jpeg']) }).optional(),
  })
  .describe('The observation kinds the session asked for');

const FaultCause = z.strictObject({ code: z.string(), message: z.string() });
const RecoveryEvent = z.strictObject({
  atStep: z.number().int(),
  cause: FaultCause,
  attempts: z.number().int(),
  replayedSteps: z.number().int(),
  ms: z.number(),
});
const Outcome = z.strictObject({
  status: z.enum(['complete', 'recovered', 'truncated']).describe('truncated: the gym ended the episode early, for `cause`'),
  recoveries: z.array(RecoveryEvent),
  cause: FaultCause.optional(),
});

const ActionMaskJson = z
  .array(z.union([z.literal(0), z.literal(1)]))
  .describe(
    "Per preset action: 1 where it may change the game now, 0 where the game would ignore it (Gymnasium's action_mask); games whose verifier defines one",
  );

export const ResetInfoJson = z.strictObject({
  seed: z.number().int(),
  state: VerifierState.optional().describe('When the session includes "state"'),
  virtualTimeMs: z.number(),
  actionMask: ActionMaskJson.optional(),
});

export const ResetResponse = z.strictObject({
  observation: ObservationJson,
  info: ResetInfoJson,
});

export const StepInfoJson = z.strictObject({
  step: z.number().int(),
  score: z.number(),
  state: VerifierState.optional().describe('When the session includes "state"'),
  virtualTimeMs: z.number(),
  actionMask: ActionMaskJson.optional(),
  gameErrors: z.array(z.string()).optional(),
  episode: EpisodeRecord.optional().describe('The episode record, on the step that ends the episode, when the session includes "record"'),
  recovered: RecoveryEvent.optional().describe('The page was rebuilt (seed + actions replayed and checked) before this step ran'),
  failure: FaultCause.extend({ attempts: z.number().int() }).optional().describe('The episode could not be kept going: it ends here as truncated'),
  outcome: Outcome.optional().describe('How the episode ended, on its last step'),
});

export const StepResponse = z.strictObject({
  observation: ObservationJson,
  reward: z.number(),
  terminated: z.boolean(),
  truncated: z.boolean(),
  info: StepInfoJson,
});

export const BatchStepResponse = z
  .strictObject({
    results: z
      .array(z.union([StepResponse, ErrorBody.extend({ status: z.number().int().describe('The HTTP status this error has when met alone') })]))
      .describe("In the request's order: each step's response, or the error of that step alone (the other steps still ran)"),
  })
  .describe('The steps of a batch');

/** A vector session's observations: each kind batched over its sub-envs. */
export const VectorObservationsJson = z
  .strictObject({
    state: z.array(VerifierState.nullable()).optional().describe('One verifier state per sub-env (null for one whose first reset failed)'),
    vector: withBytes({ dtype: z.literal('float32'), byteOrder: z.literal('little'), shape: z.tuple([z.number().int(), z.number().int()]) })
      .optional()
      .describe('numEnvs × features float32, row-major, little-endian'),
    pixels: withBytes({
      dtype: z.literal('uint8'),
      shape: z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]),
    })
      .optional()
      .describe('numEnvs × height × width × channels bytes, row-major'),
    screenshot: z.array(withBytes({ format: z.enum(['png', 'jpeg']) })).optional(),
  })
  .describe('The observation kinds the vector session asked for, each batched on a leading axis of numEnvs');

const VectorInfoJson = z
  .strictObject({
    ...StepInfoJson.partial().shape,
    ...ResetInfoJson.partial().shape,
    autoreset: z.literal(true).optional().describe('next-step: this sub-env was reset by this step (its action ignored); the fields are its reset info'),
    resetFailure: FaultCause.optional().describe('The sub-env could not be reset: it counts as truncated and is tried again on the next step'),
    finalObservation: ObservationJson.optional().describe(
      "same-step: the last observation of the episode that ended in this step (the fields are the new episode's reset info)",
    ),
    finalInfo: StepInfoJson.optional().describe('same-step: the info of the step that ended the episode'),
  })
  .describe("A sub-env's info: its step info, or its reset info on a reset");

export const VectorResetResponse = z.strictObject({
  observations: VectorObservationsJson,
  infos: z.array(VectorInfoJson),
});

export const VectorStepResponse = z.strictObject({
  observations: VectorObservationsJson,
  rewards: z.array(z.number()),
  terminated: z.array(z.boolean()),
  truncated: z.array(z.boolean()),
  infos: z.array(VectorInfoJson),
});

export const VectorStatusJson = z.strictObject({
  id: z.string(),
  game: z.string(),
  numEnvs: z.number().int(),
  batched: z.boolean().describe('Several game instances per page (false: a page per sub-env, as screenshots need)'),
  instancesPerPage: z.number().int().nullable().describe('Fixed at the first reset'),
  autoreset: z.enum(['next-step', 'same-step']),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  idleTimeoutMs: z.number().int(),
  expiresInMs: z.number().int(),
  totalSteps: z.number().int().describe('Vector steps taken'),
  episodes: z.number().int().describe('Episodes finished, over all sub-envs'),
});

export const CloseVectorResponse = z.strictObject({
  closed: z.literal(true),
  outcomes: z
    .array(Outcome.extend({ index: z.number().int(), episode: EpisodeRecord.optional() }))
    .describe('The episodes still running, recorded as truncated (their records when the session includes "record")'),
});

const SpaceJson: z.ZodType = z.lazy(() =>
  z.union([
    z.strictObject({ type: z.literal('Discrete'), n: z.number().int(), names: z.array(z.string()) }),
    z.strictObject({
      type: z.literal('Box'),
      shape: z.array(z.number().int()),
      dtype: z.enum(['float32', 'uint8']),
      low: z.union([z.number(), z.enum(['-inf', 'inf'])]),
      high: z.union([z.number(), z.enum(['-inf', 'inf'])]),
      names: z.array(z.string()).optional(),
    }),
    z.strictObject({ type: z.literal('Json'), description: z.string() }),
    z.strictObject({ type: z.literal('Image'), format: z.enum(['png', 'jpeg']) }),
    z.strictObject({ type: z.literal('Dict'), spaces: z.record(z.string(), SpaceJson) }),
  ]),
);
export { SpaceJson };

export const SessionStatusJson = z.strictObject({
  id: z.string(),
  game: z.string(),
  state: z.enum(['idle', 'stepping', 'crashed', 'recovering', 'closed']),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  idleTimeoutMs: z.number().int(),
  expiresInMs: z.number().int(),
  episodes: z.number().int(),
  episodeSteps: z.number().int(),
  episodeSeed: z.number().int().nullable(),
  episodeInProgress: z.boolean(),
  totalSteps: z.number().int(),
  recoveries: z.number().int(),
  browserId: z.number().int(),
  maxSteps: z.number().int(),
  lastOutcome: z
    .strictObject({ status: z.enum(['complete', 'recovered', 'truncated']), score: z.number(), length: z.number().int(), cause: FaultCause.optional() })
    .nullable(),
  watchers: z.number().int(),
  score: z.number(),
});

export const CreateSessionResponse = z.strictObject({
  session: SessionStatusJson,
  actionSpace: SpaceJson,
  observationSpace: SpaceJson,
});

export const CreateVectorResponse = z.strictObject({
  vector: VectorStatusJson,
  singleActionSpace: SpaceJson,
  singleObservationSpace: SpaceJson,
});

export const SessionListResponse = z.strictObject({ sessions: z.array(SessionStatusJson), maxSessions: z.number().int() });

export const CloseSessionResponse = z.strictObject({
  closed: z.literal(true),
  outcome: Outcome.extend({ episode: EpisodeRecord }).nullable().describe('The episode that was still running, recorded as truncated'),
});

export const GameJson = z.strictObject({
  id: z.string(),
  title: z.string(),
  version: z.string(),
  description: z.string(),
  controls: z.string(),
  renderer: z.enum(['2d', 'webgl', 'dom']),
  canvas: z.strictObject({ width: z.number().int(), height: z.number().int() }),
  stepBudget: z.number().int(),
  msPerStep: z.number(),
  actionSpace: SpaceJson,
  observationSpaces: z.record(z.string(), SpaceJson).describe('One space per observation kind the game supports'),
  humanReference: z.strictObject({ score: z.number(), status: z.enum(['provisional', 'verified']), stepBudget: z.number().int() }),
  verifierChecksum: z.string(),
});

export const GamesResponse = z.strictObject({ games: z.array(GameJson) });

export const HealthResponse = z.strictObject({
  ok: z.boolean(),
  sessions: z.strictObject({ open: z.number().int(), max: z.number().int() }),
  browsers: z.number().int(),
  pages: z.number().int(),
});
