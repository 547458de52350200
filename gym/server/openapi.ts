import { z } from 'zod';
import { EpisodeRecord, VerifierState } from '../schema/records';
import {
  BatchStepBody,
  BatchStepResponse,
  CloseSessionResponse,
  CloseVectorResponse,
  CreateSessionBody,
  CreateSessionResponse,
  CreateVectorBody,
  CreateVectorResponse,
  ErrorBody,
  GameJson,
  GamesResponse,
  HealthResponse,
  ObservationJson,
  ResetBody,
  ResetInfoJson,
  ResetResponse,
  SessionListResponse,
  SessionStatusJson,
  SpaceJson,
  StepBody,
  StepInfoJson,
  StepResponse,
  VectorResetBody,
  VectorResetResponse,
  VectorStatusJson,
  VectorStepBody,
  VectorStepResponse,
} from './schemas';

/**
 * The OpenAPI 3.1 document of the HTTP gym API, generated from the same zod schemas the
 * server validates with. Pure data and zod: the Next app can serve it too
 * (`Response.json(openApiDocument())`).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function components(): Record<string, unknown> {
  // Requests are described as clients write them (defaults optional), responses as sent.
  const requests = z.registry<{ id: string }>();
  requests.add(CreateSessionBody, { id: 'CreateSessionRequest' });
  requests.add(ResetBody, { id: 'ResetRequest' });
  requests.add(StepBody, { id: 'StepRequest' });
  requests.add(BatchStepBody, { id: 'BatchStepRequest' });
  requests.add(CreateVectorBody, { id: 'CreateVectorRequest' });
  requests.add(VectorResetBody, { id: 'VectorResetRequest' });
  requests.add(VectorStepBody, { id: 'VectorStepRequest' });
  const responses = z.registry<{ id: string }>();
  const add: [z.ZodType, string][] = [
    [ErrorBody, 'Error'],
    // Named once so that every response carrying one points at the same schema.
    [EpisodeRecord, 'EpisodeRecord'],
    [VerifierState, 'VerifierState'],
    [ObservationJson, 'Observation'],
    [ResetInfoJson, 'ResetInfo'],
    [StepInfoJson, 'StepInfo'],
    [SpaceJson, 'Space'],
    [GameJson, 'Game'],
    [GamesResponse, 'GameList'],
    [SessionStatusJson, 'SessionStatus'],
    [CreateSessionResponse, 'CreateSessionResponse'],
    [SessionListResponse, 'SessionList'],
    [ResetResponse, 'ResetResponse'],
    [StepResponse, 'StepResponse'],
    [BatchStepResponse, 'BatchStepResponse'],
    [CloseSessionResponse, 'CloseSessionResponse'],
    [VectorStatusJson, 'VectorStatus'],
    [CreateVectorResponse, 'CreateVectorResponse'],
    [VectorResetResponse, 'VectorResetResponse'],
    [VectorStepResponse, 'VectorStepResponse'],
    [CloseVectorResponse, 'CloseVectorResponse'],
    [HealthResponse, 'Health'],
  ];
  for (const [schema, id] of add) responses.add(schema, { id });
  const uri = (id: string) => `#/components/schemas/${id}`;
  const out: Record<string, unknown> = {};
  for (const [registry, io] of [
    [requests, 'input'],
    [responses, 'output'],
  ] as const) {
    const { schemas } = z.toJSONSchema(registry, { io, uri, unrepresentable: 'any', target: 'draft-2020-12' });
    for (const [id, s] of Object.entries(schemas)) {
      const { $schema: _drop, ...rest } = s as Record<string, unknown>;
      out[id] = rest;
    }
  }
  return out;
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
/** Every route may also answer 403: the origin and host checks run before routing. */
const errors = (...codes: number[]) =>
  Object.fromEntries([...codes, 403].sort((a, b) => a - b).map((c) => [String(c), { description: ERROR_TEXT[c], content: json(ref('Error')) }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON (INVALID_JSON), a body that fails validation (INVALID_BODY), or a bad action (INVALID_ACTION, ACTION_OUT_OF_RANGE)',
  401: 'Missing or wrong token (UNAUTHORIZED)',
  404: 'Unknown session (SESSION_NOT_FOUND), game (UNKNOWN_GAME) or path (NOT_FOUND)',
  409: 'Step before reset (RESET_NEEDED), after the episode ended (EPISODE_ENDED), or while another call of the session runs (SESSION_BUSY)',
  410: 'The session was closed (SESSION_CLOSED): by the client, the idle collector or shutdown',
  413: 'Body too large (BODY_TOO_LARGE)',
  415: 'A body sent without Content-Type: application/json (UNSUPPORTED_MEDIA_TYPE)',
  403: 'A request from a web page of another origin (FORBIDDEN_ORIGIN), or addressed to a non-loopback Host on a loopback server (FORBIDDEN_HOST)',
  503: 'Every session slot is taken (BUSY: retry after Retry-After seconds), shutting down (SHUTTING_DOWN) or no browser available (BROWSER_UNAVAILABLE, RESET_FAILED)',
};

const BINARY_NOTE =
  'Send `Accept: application/octet-stream` to get pixels and screenshots as raw bytes: the body is then a frame, "AGYM" + a 4-byte big-endian header length H + H bytes of this JSON (byte fields as {encoding:"binary",offset,length}) + the payload the offsets point into. Errors are always JSON.';

const sessionId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const binaryOr = (schema: string) => ({
  ...json(ref(schema)),
  'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
});

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Arcade Gym HTTP API',
      version: '1.0.0',
      description:
        'Gymnasium-style sessions over browser games in virtual time, for clients in any language. Every error is `{ "error": { "code", "message" } }` with a stable code. A session is one env: reset, step, close. Pages that crash or hang are rebuilt by replaying the episode (seed + actions, checked step by step); a step that needed it carries `info.recovered`, and an episode that could not be kept going ends with `truncated: true` and `info.failure`. Bodies are JSON sent with `Content-Type: application/json`. Requests from web pages (an `Origin` header) are refused unless the server allows that origin (`--allow-origin`); a server on loopback answers only requests addressed to a loopback host name.',
    },
    servers: [{ url: 'http://127.0.0.1:8787' }],
    security: [{ bearer: [] }, {}],
    paths: {
      '/health': {
        get: { summary: 'Liveness and load', security: [], responses: { 200: { description: 'OK', content: json(ref('Health')) } } },
      },
      '/openapi.json': {
        get: { summary: 'This document', security: [], responses: { 200: { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } },
      },
      '/v1/games': {
        get: {
          summary: 'Games with their action and observation spaces',
          responses: { 200: { description: 'OK', content: json(ref('GameList')) }, ...errors(401) },
        },
      },
      '/v1/games/{id}': {
        get: {
          summary: 'One game',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'OK', content: json(ref('Game')) }, ...errors(401, 404) },
        },
      },
      '/v1/sessions': {
        post: {
          summary: 'Create a session (an env on a pooled browser page)',
          requestBody: { required: true, content: json(ref('CreateSessionRequest')) },
          responses: { 201: { description: 'Created; call reset next', content: json(ref('CreateSessionResponse')) }, ...errors(400, 401, 404, 413, 415, 503) },
        },
        get: { summary: 'Open sessions', responses: { 200: { description: 'OK', content: json(ref('SessionList')) }, ...errors(401) } },
      },
      '/v1/sessions/{id}': {
        get: {
          summary: 'Session status',
          parameters: [sessionId],
          responses: { 200: { description: 'OK', content: json(ref('SessionStatus')) }, ...errors(401, 404, 410) },
        },
        delete: {
          summary: 'Close a session (an unfinished episode is recorded as truncated)',
          parameters: [sessionId],
          responses: { 200: { description: 'Closed', content: json(ref('CloseSessionResponse')) }, ...errors(401, 404, 410) },
        },
      },
      '/v1/sessions/{id}/watch': {
        get: {
          summary: 'Watch a session live',
          description:
            'A text/event-stream: one `step` event per step (JSON: step, score, reward, terminated, truncated, virtualTimeMs, frame — a JPEG data URL of the game canvas, at most 10 a second, else null). Streaming stops when the client disconnects.',
          parameters: [sessionId],
          responses: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors(401, 404, 410) },
        },
      },
      '/v1/sessions/{id}/reset': {
        post: {
          summary: 'Start an episode',
          description: BINARY_NOTE,
          parameters: [sessionId],
          requestBody: { required: false, content: json(ref('ResetRequest')) },
          responses: {
            200: {
              description: 'First observation',
              content: binaryOr('ResetResponse'),
            },
            ...errors(400, 401, 404, 409, 410, 413, 415, 503),
          },
        },
      },
      '/v1/sessions/{id}/step': {
        post: {
          summary: 'Take one step',
          description: BINARY_NOTE,
          parameters: [sessionId],
          requestBody: { required: true, content: json(ref('StepRequest')) },
          responses: {
            200: {
              description: 'Observation, reward, terminated, truncated, info',
              content: binaryOr('StepResponse'),
            },
            ...errors(400, 401, 404, 409, 410, 413, 415, 503),
          },
        },
      },
      '/v1/steps': {
        post: {
          summary: 'Take one step in each of several sessions, concurrently',
          description: `A vector env over HTTP: one round trip steps every session listed (each at most once). Unknown sessions and invalid actions refuse the whole batch before any step runs; an error met while stepping (an episode already over, a session busy) answers for that step alone. ${BINARY_NOTE} In binary frames, every byte field of every result points into the one payload.`,
          requestBody: { required: true, content: json(ref('BatchStepRequest')) },
          responses: {
            200: {
              description: 'One result per step, in order',
              content: binaryOr('BatchStepResponse'),
            },
            ...errors(400, 401, 404, 410, 413, 415),
          },
        },
      },
      '/v1/vectors': {
        post: {
          summary: 'Create a vector session: numEnvs sub-envs of one game, stepped by one call',
          description:
            "Gymnasium 1.0's vector env over HTTP. Sub-envs run several to a browser page where the game allows (else a page each), with the same recovery as sessions. It counts as one session against the server's limit; its pages are leased at the first reset (503 BUSY when too few are free). Infos carry only step, score, virtualTimeMs, actionMask and faults unless `include` asks for the verifier state or the episode record.",
          requestBody: { required: true, content: json(ref('CreateVectorRequest')) },
          responses: { 201: { description: 'Created; call reset next', content: json(ref('CreateVectorResponse')) }, ...errors(400, 401, 413, 415, 503) },
        },
        get: {
          summary: 'Open vector sessions',
          responses: {
            200: {
              description: 'OK',
              content: json({ type: 'object', properties: { vectors: { type: 'array', items: ref('VectorStatus') }, maxSessions: { type: 'integer' } } }),
            },
            ...errors(401),
          },
        },
      },
      '/v1/vectors/{id}': {
        get: {
          summary: 'Vector session status',
          parameters: [sessionId],
          responses: { 200: { description: 'OK', content: json(ref('VectorStatus')) }, ...errors(401, 404, 410) },
        },
        delete: {
          summary: 'Close a vector session (unfinished episodes are recorded as truncated)',
          parameters: [sessionId],
          responses: { 200: { description: 'Closed', content: json(ref('CloseVectorResponse')) }, ...errors(401, 404, 410) },
        },
      },
      '/v1/vectors/{id}/reset': {
        post: {
          summary: 'Reset every sub-env',
          description: `Observations come batched per kind: vectors as one numEnvs × n float32 block, pixels as one numEnvs × h × w × c byte block. ${BINARY_NOTE}`,
          parameters: [sessionId],
          requestBody: { required: false, content: json(ref('VectorResetRequest')) },
          responses: {
            200: { description: 'First observations', content: binaryOr('VectorResetResponse') },
            ...errors(400, 401, 404, 409, 410, 413, 415, 503),
          },
        },
      },
      '/v1/vectors/{id}/step': {
        post: {
          summary: 'Step every sub-env, with autoreset',
          description: `One action per sub-env; all are checked before any runs. A sub-env whose episode ended is reset as the session's autoreset mode says (infos[i].autoreset, or finalObservation and finalInfo). ${BINARY_NOTE}`,
          parameters: [sessionId],
          requestBody: { required: true, content: json(ref('VectorStepRequest')) },
          responses: {
            200: { description: 'Observations, rewards, terminated, truncated, infos', content: binaryOr('VectorStepResponse') },
            ...errors(400, 401, 404, 409, 410, 413, 415, 503),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server was started with a token (always when it listens beyond loopback)' },
      },
      schemas: components(),
    },
  };
}
