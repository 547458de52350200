/**
 * The leaderboard's HTTP API (tickets, submissions and their status, stored episodes) as OpenAPI
 * 3.1 paths and schemas, generated from the zod schemas the server validates with. The site's
 * /openapi.json serves it together with the gym API's document.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { EpisodeRecord, VerifierState } from '../gym/schema';
import { MAX_SUBMISSION_BYTES } from './submission-limit';
import { ApiErrorBody, LiveClaims, RunSubmission, SubmissionStatus } from './submission-schema';
import { TicketJson, TicketRequest } from './ticket-schema';
import { HumanPlayerDecision, VisitorRunRequest, VisitorTicketRequest } from './visitor-play-schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON (INVALID_JSON) or a body that fails validation (INVALID_SUBMISSION, with the path)',
  401: 'Missing or unknown token (UNAUTHORIZED, INVALID_TOKEN)',
  403: 'Not allowed: human play without an admin token (FORBIDDEN), or an agent name of another token (AGENT_NAME_TAKEN), a player name registered elsewhere (PLAYER_NAME_TAKEN), or a live reset with a seed or other arguments (LIVE_REFUSED)',
  404: 'No such ticket for this token (TICKET_NOT_FOUND), no such player (PLAYER_NOT_FOUND), or no such submission or episode (NOT_FOUND)',
  409: 'An id already used for a different submission (IDEMPOTENCY_CONFLICT), or a ticket already used (TICKET_USED); live play: an episode still in play (EPISODE_IN_PROGRESS), none in play (RESET_NEEDED), a closed ticket (TICKET_CLOSED)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  415: 'Not sent as application/json (UNSUPPORTED_MEDIA_TYPE)',
  422: 'An episode of a game, build, verifier or runtime the server does not have (UNKNOWN_GAME, GAME_VERSION_MISMATCH, VERIFIER_CHECKSUM_MISMATCH, RUNTIME_VERSION_MISMATCH), a ticket for other play (TICKET_MISMATCH), or more steps than one submission may replay (BUDGET_EXCEEDED)',
  429: 'Too many new submissions or tickets for this token (RATE_LIMITED; retry after Retry-After seconds). Retries of a known submission id are never limited.',
  503: 'The leaderboard database is not available right now (UNAVAILABLE)',
};
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: ERROR_TEXT[c], content: json(ref('LeaderboardError')) }]));

function components(): Record<string, unknown> {
  const requests = z.registry<{ id: string }>();
  requests.add(TicketRequest, { id: 'TicketRequest' });
  requests.add(RunSubmission, { id: 'RunSubmission' });
  requests.add(LiveClaims, { id: 'LiveClaims' });
  requests.add(VisitorTicketRequest, { id: 'VisitorTicketRequest' });
  requests.add(VisitorRunRequest, { id: 'VisitorRunRequest' });
  requests.add(HumanPlayerDecision, { id: 'HumanPlayerDecision' });
  const responses = z.registry<{ id: string }>();
  responses.add(TicketJson, { id: 'Ticket' });
  responses.add(SubmissionStatus, { id: 'SubmissionStatus' });
  responses.add(EpisodeRecord, { id: 'EpisodeRecord' });
  // Named as the gym's document names it, so the record's schema is the same in both (siteOpenApi).
  responses.add(VerifierState, { id: 'VerifierState' });
  responses.add(ApiErrorBody, { id: 'LeaderboardError' });
  const out: Record<string, unknown> = {};
  for (const [registry, io] of [
    [requests, 'input'],
    [responses, 'output'],
  ] as const) {
    const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any', target: 'draft-2020-12' });
    for (const [id, s] of Object.entries(schemas)) {
      const { $schema: _drop, ...rest } = s as Record<string, unknown>;
      // The request's copy of the episode record is the same schema as the response's.
      out[id in out ? `${id}Input` : id] = rest;
    }
  }
  return out;
}

const PROTOCOL =
  'The leaderboard ranks only what the server replayed, on seeds it drew. 1) POST /api/tickets: the server draws fresh seeds for a game or suite and returns them with the official settings and an expiry. 2) Play exactly those seeds at those settings (`arcade-gym eval --server … --token …`). 3) POST /api/runs with the ticket id: the run is checked and queued (202, with a status URL). 4) GET the status URL until it is `accepted` (with the stored run) or `rejected` (with the error). The server replays every episode and stores the replay; a submitted field that contradicts it is a rejection naming the field. A run ranks only if it played every seed of its unexpired ticket once, each episode complete (terminated, or truncated at the official step budget) at the official settings; anything else is stored unranked, with the reason. A ticket is used once. Without a ticket a run is stored, verified and shown unranked.';

export function leaderboardOpenApi(): { paths: Record<string, unknown>; schemas: Record<string, unknown>; description: string } {
  const id = (what: string) => ({ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: what });
  return {
    description: PROTOCOL,
    schemas: components(),
    paths: {
      '/api/tickets': {
        post: {
          summary: 'Draw an evaluation ticket: fresh seeds for a game or suite, at the official settings',
          tags: ['leaderboard'],
          security: [{ bearer: [] }],
          requestBody: { required: true, content: json(ref('TicketRequest')) },
          responses: {
            201: {
              description: 'The ticket (Location: its URL)',
              content: json({ type: 'object', properties: { ticket: ref('Ticket') }, required: ['ticket'] }),
            },
            ...errors(400, 401, 403, 422, 429, 503),
          },
        },
      },
      '/api/tickets/{id}': {
        get: {
          summary: 'One of this token’s tickets (what `arcade-gym eval --ticket` plays)',
          tags: ['leaderboard'],
          security: [{ bearer: [] }],
          parameters: [id('The ticket id (tkt_…)')],
          responses: {
            200: { description: 'The ticket', content: json({ type: 'object', properties: { ticket: ref('Ticket') }, required: ['ticket'] }) },
            ...errors(401, 404, 503),
          },
        },
      },
      '/api/runs': {
        post: {
          summary: 'Submit a run for verification',
          description:
            'Checked (token, size, schema, games, ticket) and queued: 202 with the submission status and its URL (also in Location). A retry with the same id and body is answered from what is stored (200 once settled, 202 while pending; header Idempotent-Replayed: true) before any rate limit. Verification runs in the background with a budget per submission (steps, and wall time once started) and takes turns across tokens. ' +
            `The body is JSON, plain or gzip-compressed (Content-Encoding: gzip), of at most ${MAX_SUBMISSION_BYTES} bytes as parsed (ARCADE_MAX_SUBMISSION_BYTES; 413 PAYLOAD_TOO_LARGE past it, 415 for another encoding).`,
          tags: ['leaderboard'],
          security: [{ bearer: [] }],
          requestBody: { required: true, content: json(ref('RunSubmission')) },
          responses: {
            202: { description: 'Queued (or, for a retry, still pending)', content: json(ref('SubmissionStatus')) },
            200: { description: 'A retry of a submission already settled: its stored answer', content: json(ref('SubmissionStatus')) },
            ...errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
          },
        },
      },
      '/api/submissions/{id}': {
        get: {
          summary:
            'Where a submission stands: queued (with its position), verifying (with progress), accepted (with the stored run), or rejected (with the error)',
          tags: ['leaderboard'],
          security: [],
          parameters: [id('The submission id from the status URL')],
          responses: { 200: { description: 'The status (Retry-After while pending)', content: json(ref('SubmissionStatus')) }, ...errors(404, 503) },
        },
      },
      '/api/play/tickets': {
        post: {
          summary:
            'Human reference play without a token (/play/<id>): a fresh seed of one game for a named player. A new name is registered as a candidate and the answer carries its playerKey, once; later tickets under the name need it (403 PLAYER_NAME_TAKEN otherwise, also for names an admin token played under). Rate-limited per address and for all visitors together',
          tags: ['leaderboard'],
          requestBody: { required: true, content: json(ref('VisitorTicketRequest')) },
          responses: {
            201: {
              description: 'The ticket, the player ({name, status}) and, for a new name, its playerKey',
              content: json({
                type: 'object',
                properties: { ticket: ref('Ticket'), player: { type: 'object' }, playerKey: { type: 'string' } },
                required: ['ticket', 'player'],
              }),
            },
            ...errors(400, 403, 413, 415, 422, 429, 503),
          },
        },
      },
      '/api/play/runs': {
        post: {
          summary:
            "A visitor's episode on their ticket: replayed like any run (202 with the status URL; the same episode again is answered from what is stored, another one on the ticket is 409 TICKET_USED). It counts for the game's human reference once an admin accepts the player",
          tags: ['leaderboard'],
          requestBody: { required: true, content: json(ref('VisitorRunRequest')) },
          responses: { 202: { description: 'Queued', content: json(ref('SubmissionStatus')) }, ...errors(400, 403, 404, 409, 413, 415, 422, 503) },
        },
      },
      '/api/admin/human-players': {
        get: {
          summary: 'Every human reference player (candidates first) with their ranked episodes per game (admin token)',
          tags: ['leaderboard'],
          security: [{ bearer: [] }],
          responses: {
            200: { description: '{players: [{name, status, visitor, createdAt, decidedAt, games: [{gameId, episodes, meanScore}]}]}' },
            ...errors(401, 403, 503),
          },
        },
        post: {
          summary:
            "Accept or reject a player (admin token): only accepted players' episodes make the references, which are recomputed for every game the player played",
          tags: ['leaderboard'],
          security: [{ bearer: [] }],
          requestBody: { required: true, content: json(ref('HumanPlayerDecision')) },
          responses: { 200: { description: 'The player, as listed' }, ...errors(400, 401, 403, 404, 503) },
        },
      },
      '/api/policy-runs': {
        post: {
          summary:
            'Hands the server a trained policy to play: the body is the .agckpt checkpoint (application/octet-stream, at most 64 MiB); the query names the agent, the game or suite, seedsPerGame and the mode (greedy or sample). The server draws a ticket ("mode": "policy", seeds hidden until the run is in), its workers play the checkpoint as eval jobs, and the episodes are submitted as the token\'s run; GET /api/tickets/{id} says how it stands (policy.state: playing, submitted with the statusUrl, or failed with the error)',
          tags: ['leaderboard'],
          parameters: [
            { name: 'agent', in: 'query', required: true, schema: { type: 'string' }, description: 'The agent name the run is submitted under' },
            { name: 'game', in: 'query', schema: { type: 'string' }, description: 'One game (or suite)' },
            { name: 'suite', in: 'query', schema: { type: 'string' }, description: 'A suite (or game)' },
            { name: 'seedsPerGame', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } },
            { name: 'mode', in: 'query', schema: { type: 'string', enum: ['greedy', 'sample'], default: 'greedy' } },
          ],
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: { 202: { description: 'The ticket, as {ticket}, with policy.state "playing"' }, ...errors(400, 401, 403, 413, 415, 422, 429, 503) },
        },
      },
      '/api/live/{id}/reset': {
        post: {
          summary:
            'Starts the next episode of a live ticket (`"mode": "live"`) on a seed the server keeps: the body must be `{}`, an episode is reset once, and the answer is the gym reset (observation, info without the seed, info.episode = {position, game, of}). Every live call is forwarded to the worker that hosts the ticket, which also answers `<ticket.live.endpoint>/reset`, `/step`, `/claims` and `/close` directly, with the same bodies',
          tags: ['leaderboard'],
          parameters: [id('The live ticket id')],
          requestBody: { required: true, content: json({ type: 'object', additionalProperties: false }) },
          responses: { 200: { description: 'The reset, as the gym API answers it' }, ...errors(401, 403, 404, 409, 503) },
        },
      },
      '/api/live/{id}/step': {
        post: {
          summary:
            'Steps the live episode in play (`{action}`, as the gym API). The step that ends the episode stores it; the step that ends the last one closes the ticket and submits its run (info.ticket: the closed ticket, seeds shown, and the submission status)',
          tags: ['leaderboard'],
          parameters: [id('The live ticket id')],
          requestBody: { required: true, content: json({ type: 'object', properties: { action: {} }, required: ['action'] }) },
          responses: { 200: { description: 'The step, as the gym API answers it' }, ...errors(400, 401, 404, 409, 503) },
        },
      },
      '/api/live/{id}/claims': {
        post: {
          summary:
            "What a live ticket's agent is (harness, model, code version; a trained policy's training settings and learning curve), taken until its last episode ends and submitted with its run, stored as claimed; a later call replaces an earlier one",
          tags: ['leaderboard'],
          parameters: [id('The live ticket id')],
          requestBody: { required: true, content: json(ref('LiveClaims')) },
          responses: { 200: { description: 'The live ticket, as {ticket}' }, ...errors(400, 401, 404, 409, 413, 503) },
        },
      },
      '/api/live/{id}/close': {
        post: {
          summary:
            'Closes a live ticket: an episode in play is stored truncated (TICKET_CLOSED), unplayed seeds stay unplayed, and what was played to its end is submitted',
          tags: ['leaderboard'],
          parameters: [id('The live ticket id')],
          responses: {
            200: { description: 'The closed ticket (seeds shown) with its submission status, or null when nothing was played to its end' },
            ...errors(401, 404, 409, 503),
          },
        },
      },
      '/api/episodes/{id}': {
        get: {
          summary: 'A stored episode’s record, as the server replayed it',
          tags: ['leaderboard'],
          security: [],
          parameters: [id('The episode id')],
          responses: { 200: { description: 'The episode record', content: json(ref('EpisodeRecord')) }, ...errors(404) },
        },
      },
    },
  };
}

interface OpenApiDoc {
  info: { description?: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

/**
 * The site's document: the gym API's (as `arcade-gym serve` serves it) and the leaderboard's in
 * one. A schema both define (the episode record) appears once; a name the two define differently
 * is an error, since one of the two would silently describe the other's bodies.
 */
export function siteOpenApi(gymDocument: Record<string, unknown>): Record<string, unknown> {
  const gym = gymDocument as unknown as OpenApiDoc;
  const board = leaderboardOpenApi();
  for (const [name, schema] of Object.entries(board.schemas)) {
    if (name in gym.components.schemas && !isDeepStrictEqual(gym.components.schemas[name], schema)) {
      throw new Error(`OpenAPI: schema "${name}" is defined differently by the gym and the leaderboard`);
    }
  }
  return {
    ...gym,
    info: { ...gym.info, description: `${gym.info.description ?? ''}\n\nLeaderboard: ${board.description}` },
    // The gym's paths are served by `arcade-gym serve`; the leaderboard's by this site.
    paths: {
      ...gym.paths,
      ...Object.fromEntries(
        Object.entries(board.paths).map(([p, item]) => [p, { servers: [{ url: '/', description: 'the leaderboard site' }], ...(item as object) }]),
      ),
    },
    components: { ...gym.components, schemas: { ...gym.components.schemas, ...board.schemas } },
  };
}
