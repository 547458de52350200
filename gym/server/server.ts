import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArcadeGymError } from '../errors';
import { SessionManager, type SessionManagerOptions, type ShutdownReport } from '../sessions/session-manager';
import { assertSafeBinding, checkToken } from './auth';
import type { Session } from '../sessions/session';
import type { VectorSession } from '../sessions/vector-session';
import { ALL_EXTRAS, BINARY_TYPE, encode, outcomeJson, resetBody, spaceJson, stepBody, vectorResetBody, vectorStepBody, type Extras } from './encode';
import { listGames, oneGame } from './games';
import { ClientAbortedError, failureLine } from './failure-log';
import { errorReply, HttpError } from './http-errors';
import { openApiDocument } from './openapi';
import { checkOrigin, originPolicy, preflightHeaders } from './origin';
import { readBody, readJson } from './read-body';
import { BatchStepBody, CreateSessionBody, CreateVectorBody, ResetBody, StepBody, VectorResetBody, VectorStepBody } from './schemas';
import { resolveAction } from '../env/resolve-action';

export interface GymServerOptions {
  /** Defaults to 127.0.0.1; any other address requires a token. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Clients send `Authorization: Bearer <token>`; required when not on loopback. */
  token?: string;
  /** Origins (scheme://host[:port]) whose web pages may call the API; pages of any other origin are refused. */
  allowedOrigins?: string[];
  /** A manager to serve, or options for one the server owns (and shuts down with it). */
  sessions?: SessionManager | SessionManagerOptions;
  /** Larger request bodies get 413. */
  maxBodyBytes?: number;
  /** One line per notable event: start, shutdown, 5xx refusals, clients that hung up mid-body, internal errors (with their stack). */
  log?: (line: string) => void;
}

export interface GymServer {
  url: string;
  host: string;
  port: number;
  sessions: SessionManager;
  /** Stops listening, records every open episode, closes sessions (and the pool the server made). */
  close(): Promise<ShutdownReport>;
}

interface Request {
  req: IncomingMessage;
  params: Record<string, string>;
  /** Whether the client asked for binary frames. */
  binary: boolean;
}
interface Reply {
  status?: number;
  /** A JSON value, or an already encoded body. */
  json?: unknown;
  encoded?: { contentType: string; body: Buffer };
  /** A long-lived response the handler writes itself (server-sent events). */
  stream?: (req: IncomingMessage, res: ServerResponse) => void;
}
type Handler = (r: Request) => Promise<Reply>;
interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  open?: boolean;
  handler: Handler;
}

const DEFAULT_MAX_BODY = 64 * 1024;

/**
 * Resolves on the next turn of the event loop. Steps start there: what is left of the request's
 * handling (parser and socket bookkeeping, on both sides of a local client) otherwise runs
 * between sending the page its call and reading the answer, and slowed every step (bench/README.md,
 * Design measurements).
 */
const quietEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function route(method: string, path: string, handler: Handler, open = false): Route {
  const keys: string[] = [];
  const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, k: string) => (keys.push(k), '([^/]+)'))}$`);
  return { method, pattern, keys, handler, open };
}

/** Starts the HTTP gym API (plain node:http). Resolves once it listens. */
export async function startGymServer(options: GymServerOptions = {}): Promise<GymServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token;
  assertSafeBinding(host, token);
  const origins = originPolicy(host, options.allowedOrigins);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const log = options.log ?? (() => undefined);
  const ownsManager = !(options.sessions instanceof SessionManager);
  const manager = options.sessions instanceof SessionManager ? options.sessions : new SessionManager(options.sessions);
  const openapi = JSON.stringify(openApiDocument());
  // What each session's infos carry (its `include`).
  const extrasOf = new WeakMap<Session | VectorSession, Extras>();
  const extras = (session: Session | VectorSession) => extrasOf.get(session) ?? ALL_EXTRAS;
  const unknownGameIsBad = (e: unknown): never => {
    // A game named in a body is a bad request, not a missing resource.
    if (e instanceof ArcadeGymError && e.code === 'UNKNOWN_GAME') throw new HttpError(400, e.code, e.message);
    throw e;
  };

  const routes: Route[] = [
    route(
      'GET',
      '/health',
      async () => {
        const s = manager.stats();
        return { json: { ok: !s.shuttingDown, sessions: { open: s.open, max: s.maxSessions }, browsers: s.pool.browsers.length, pages: s.pool.pages } };
      },
      true,
    ),
    route('GET', '/openapi.json', async () => ({ encoded: { contentType: 'application/json; charset=utf-8', body: Buffer.from(openapi) } }), true),
    route('GET', '/v1/games', async () => ({ json: listGames() })),
    route('GET', '/v1/games/{id}', async ({ params }) => ({ json: oneGame(params.id) })),
    route('POST', '/v1/sessions', async ({ req }) => {
      const { idleTimeoutMs, include, ...env } = await readJson(req, CreateSessionBody, limit);
      const session = await manager.create({ env, idleTimeoutMs }).catch(unknownGameIsBad);
      extrasOf.set(session, new Set(include));
      return {
        status: 201,
        json: { session: session.status(), actionSpace: spaceJson(session.actionSpace), observationSpace: spaceJson(session.observationSpace) },
      };
    }),
    route('GET', '/v1/sessions', async () => ({ json: { sessions: manager.list(), maxSessions: manager.maxSessions } })),
    route('GET', '/v1/sessions/{id}', async ({ params }) => ({ json: manager.get(params.id).status() })),
    route('DELETE', '/v1/sessions/{id}', async ({ params }) => {
      const outcome = await manager.close(params.id);
      return { json: { closed: true, outcome: outcome ? { ...outcomeJson(outcome), episode: outcome.record } : null } };
    }),
    route('GET', '/v1/sessions/{id}/watch', async ({ params }) => {
      const session = manager.get(params.id);
      return {
        stream: (req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
          res.write(`event: status\ndata: ${JSON.stringify(session.status())}\n\n`);
          const stop = session.watch.subscribe((event) => res.write(`event: step\ndata: ${JSON.stringify(event)}\n\n`));
          // Comments keep proxies from closing a quiet stream.
          const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
          const end = () => {
            clearInterval(keepAlive);
            stop();
          };
          req.on('close', end);
          res.on('close', end);
        },
      };
    }),
    route('POST', '/v1/sessions/{id}/reset', async ({ req, params, binary }) => {
      const body = await readJson(req, ResetBody, limit);
      const session = manager.get(params.id);
      const r = await session.reset(body);
      return { encoded: encode(binary, (sink) => resetBody(r, sink, extras(session))) };
    }),
    route('POST', '/v1/sessions/{id}/step', async ({ req, params, binary }) => {
      const body = await readJson(req, StepBody, limit);
      const session = manager.get(params.id);
      await quietEventLoop();
      const r = await session.step(body.action);
      return { encoded: encode(binary, (sink) => stepBody(r, sink, extras(session))) };
    }),
    route('POST', '/v1/steps', async ({ req, binary }) => {
      const body = await readJson(req, BatchStepBody, limit);
      // Every session and action is checked before any step runs, as a vector env does.
      const sessions = body.steps.map((s) => manager.get(s.session));
      body.steps.forEach((s, i) => {
        try {
          resolveAction(sessions[i].env.manifest, s.action);
        } catch (e) {
          const { error } = errorReply(e).body;
          throw new HttpError(400, error.code, `steps[${i}] (session ${s.session}): ${error.message}`);
        }
      });
      await quietEventLoop();
      const settled = await Promise.allSettled(sessions.map((session, i) => session.step(body.steps[i].action)));
      const failed = (reason: unknown) => {
        const reply = errorReply(reason);
        const line = failureLine('POST /v1/steps', reply.status, reply.body.error.code, reason);
        if (line) log(line);
        return { ...reply.body, status: reply.status };
      };
      return {
        encoded: encode(binary, (sink) => ({
          results: settled.map((r, i) => (r.status === 'fulfilled' ? stepBody(r.value, sink, extras(sessions[i])) : failed(r.reason))),
        })),
      };
    }),
    route('POST', '/v1/vectors', async ({ req }) => {
      const { idleTimeoutMs, include, ...env } = await readJson(req, CreateVectorBody, limit);
      const vector = await manager.createVector({ env, idleTimeoutMs }).catch(unknownGameIsBad);
      extrasOf.set(vector, new Set(include));
      return {
        status: 201,
        json: {
          vector: vector.status(),
          singleActionSpace: spaceJson(vector.env.singleActionSpace),
          singleObservationSpace: spaceJson(vector.env.singleObservationSpace),
        },
      };
    }),
    route('GET', '/v1/vectors', async () => ({ json: { vectors: manager.listVectors(), maxSessions: manager.maxSessions } })),
    route('GET', '/v1/vectors/{id}', async ({ params }) => ({ json: manager.getVector(params.id).status() })),
    route('DELETE', '/v1/vectors/{id}', async ({ params }) => {
      const kept = extras(manager.getVector(params.id));
      const outcomes = await manager.closeVector(params.id);
      return {
        json: {
          closed: true,
          outcomes: outcomes.map((o) => ({ index: o.index, ...outcomeJson(o), ...(kept.has('record') ? { episode: o.record } : {}) })),
        },
      };
    }),
    route('POST', '/v1/vectors/{id}/reset', async ({ req, params, binary }) => {
      const body = await readJson(req, VectorResetBody, limit);
      const vector = manager.getVector(params.id);
      // null: that sub-env's sequence goes on (subEnvSeed passes it through as no seed).
      const seed = Array.isArray(body.seed) ? (body.seed.map((s) => s ?? undefined) as number[]) : body.seed;
      const r = await vector.reset({ seed });
      return { encoded: encode(binary, (sink) => vectorResetBody(r, sink, extras(vector))) };
    }),
    route('POST', '/v1/vectors/{id}/step', async ({ req, params, binary }) => {
      const body = await readJson(req, VectorStepBody, limit);
      const vector = manager.getVector(params.id);
      await quietEventLoop();
      const r = await vector.step(body.actions);
      return { encoded: encode(binary, (sink) => vectorStepBody(r, sink, extras(vector))) };
    }),
  ];

  const send = (res: ServerResponse, status: number, contentType: string, body: Buffer, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': contentType, 'content-length': String(body.byteLength), 'cache-control': 'no-store', ...headers });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      // Before routing: a refused page learns nothing, not even which paths exist.
      const cors = checkOrigin(req, origins);
      for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
      if (req.method === 'OPTIONS' && cors['access-control-allow-origin'] && req.headers['access-control-request-method']) {
        res.writeHead(204, { ...preflightHeaders(), 'cache-control': 'no-store' });
        res.end();
        return;
      }
      // The path alone (no query string is used); parsed by hand, since this runs on every step.
      const target = req.url ?? '/';
      const query = target.indexOf('?');
      const pathname = query < 0 ? target : target.slice(0, query);
      const matching = routes.filter((r) => r.pattern.test(pathname));
      if (matching.length === 0) throw new HttpError(404, 'NOT_FOUND', `No such path: ${pathname} (see /openapi.json)`);
      const r = matching.find((m) => m.method === req.method);
      if (!r)
        throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${pathname}: use ${matching.map((m) => m.method).join(', ')}`, {
          allow: matching.map((m) => m.method).join(', '),
        });
      if (!r.open) checkToken(req, token);
      const m = r.pattern.exec(pathname)!;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => {
        try {
          params[k] = decodeURIComponent(m[i + 1]);
        } catch {
          throw new HttpError(400, 'INVALID_PATH', `Malformed path segment: ${m[i + 1]}`);
        }
      });
      const binary = (req.headers.accept ?? '').split(',').some((t) => t.trim().split(';')[0] === BINARY_TYPE);
      const reply = await r.handler({ req, params, binary });
      if (reply.stream) reply.stream(req, res);
      else if (reply.encoded) send(res, reply.status ?? 200, reply.encoded.contentType, reply.encoded.body);
      else send(res, reply.status ?? 200, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(reply.json)));
    } catch (e) {
      const { status, headers, body } = errorReply(e);
      const line = failureLine(`${req.method} ${req.url}`, status, body.error.code, e);
      if (line) log(line);
      // No one is left to read an answer, and the body will never end.
      if (e instanceof ClientAbortedError) return;
      // Whatever is left of the request body is drained before answering (a client still sending reads the error).
      if (!req.complete) await readBody(req, limit).catch(() => undefined);
      send(res, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(body)), headers);
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('clientError', (_err, socket) => {
    if (socket.writable)
      socket.end(
        'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":{"code":"BAD_REQUEST","message":"Malformed HTTP request"}}',
      );
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  log(`arcade-gym API listening on http://${urlHost}:${address.port} (${token ? 'token required' : 'no token: loopback only'})`);

  let closing: Promise<ShutdownReport> | null = null;
  return {
    url: `http://${urlHost}:${address.port}`,
    host,
    port: address.port,
    sessions: manager,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const report = ownsManager ? await manager.shutdown() : { sessionsClosed: 0, episodesRecorded: 0, forced: 0 };
        server.closeAllConnections();
        await stopped;
        log(`arcade-gym API stopped: ${report.sessionsClosed} sessions closed, ${report.episodesRecorded} running episodes recorded`);
        return report;
      })();
      return closing;
    },
  };
}
