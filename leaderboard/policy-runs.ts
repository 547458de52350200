/**
 * Policy runs: a token hands the server a trained policy (`POST /api/policy-runs`, the checkpoint's
 * bytes as the body) and the server plays it, on a ticket of its own drawing, as `eval` jobs on its
 * queue: any worker on the database may play them, as the Open RL Leaderboard runs the agents it is
 * sent. The seeds never leave the server before the run is in, and the policy was fixed before they
 * were drawn, so nothing can be searched. When the last batch is stored the ticket is closed and the
 * episodes enter through intake() as the token's run, replayed like any other.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { tickets } from '../drizzle/schema';
import { decodeCheckpoint } from '../gym/ppo';
import type { EpisodeRecord, ObservationKind } from '../gym/schema';
import { enqueueEvalRun, evalRunRecords, waitForEvalRun } from '../jobs/eval-run';
import type { JobQueue } from '../jobs/queue';
import { ApiError, invalidAt, jsonResponse } from './api-error';
import { ownAgent } from './ingest';
import { type RateLimiter, takeTurn } from './rate-limit';
import { AgentName, RunSubmission } from './submission-schema';
import { intake, requireToken, type IntakeDeps } from './submissions';
import { issueTicket, ownTicket, ticketJson, type TicketRow } from './tickets';

/** The largest checkpoint taken: a pixel policy's CNN with its header, with room to spare. */
export const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024;

export interface PolicyRunOptions {
  intake: IntakeDeps;
  /** The queue whose workers play the runs (the site's own, leaderboard/server.ts). */
  jobs: () => Promise<JobQueue>;
  /** Where the checkpoints handed over are kept while their runs are played. */
  dir: string;
  limiter: RateLimiter;
  ttlMs?: number;
  /** Seeds per `eval` job (default 5). */
  batchSize?: number;
  pollMs?: number;
}

/** The query string of POST /api/policy-runs. */
export const PolicyRunRequest = z
  .strictObject({
    agent: AgentName,
    game: z.string().min(1).max(64).optional(),
    suite: z.string().min(1).max(64).optional(),
    seedsPerGame: z.coerce.number().int().min(1).max(50).optional(),
    /** How the policy picks its actions: the argmax (default) or a draw from it. */
    mode: z.enum(['greedy', 'sample']).default('greedy'),
  })
  .refine((r) => (r.suite === undefined) !== (r.game === undefined), { message: 'give exactly one of "suite" or "game"' });
export type PolicyRunRequest = z.infer<typeof PolicyRunRequest>;

export class PolicyRuns {
  private readonly following = new Map<string, Promise<void>>();
  private closed = false;

  constructor(private readonly options: PolicyRunOptions) {}

  /** POST /api/policy-runs?agent=…&game=…|suite=…[&seedsPerGame=N][&mode=greedy|sample], body: the .agckpt file. */
  async submit(request: Request): Promise<Response> {
    try {
      const { db } = this.options.intake;
      const token = await requireToken(db, request);
      const query = PolicyRunRequest.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!query.success) throw invalidAt('policy run request', query.error.issues[0]);
      const type = request.headers.get('content-type') ?? '';
      if (!type.startsWith('application/octet-stream'))
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `A policy run's body is the checkpoint file as application/octet-stream, not "${type || 'nothing'}"`);
      const declared = Number(request.headers.get('content-length') ?? 0);
      if (declared > MAX_CHECKPOINT_BYTES) throw tooLarge();
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.length > MAX_CHECKPOINT_BYTES) throw tooLarge();
      let header: ReturnType<typeof decodeCheckpoint>['header'];
      try {
        header = decodeCheckpoint(bytes).header;
      } catch (e) {
        throw new ApiError('INVALID_SUBMISSION', `The body is not an arcade-gym checkpoint: ${e instanceof Error ? e.message : e}`);
      }
      const req = query.data;
      await ownAgent(db, req.agent, token.id);
      takeTurn(this.options.limiter, `policy:${token.id}`, 'policy runs for this token');
      const checkpointSha256 = createHash('sha256').update(bytes).digest('hex');
      // What the policy reads: pixels for an image-shaped input, else the verifier's vector.
      const observation: ObservationKind[] = [header.obsShape.length === 3 ? 'pixels' : 'vector'];
      const ticket = await issueTicket(db, this.options.intake.catalog(), {
        tokenId: token.id,
        purpose: 'evaluation',
        ...(req.game ? { game: req.game } : { suite: req.suite }),
        ...(req.seedsPerGame ? { seedsPerGame: req.seedsPerGame } : {}),
        mode: 'policy',
        live: { agent: req.agent, observation, policy: { checkpointSha256, algorithm: header.algorithm, mode: req.mode } },
        ttlMs: this.options.ttlMs,
      });
      await mkdir(this.options.dir, { recursive: true });
      const file = path.join(this.options.dir, `${checkpointSha256}.agckpt`);
      await writeFile(file, bytes);
      const catalog = this.options.intake.catalog();
      const games = ticket.games.map((g) => catalog.games.find((e) => e.manifest.id === g.gameId)!);
      const { runId } = await enqueueEvalRun(await this.options.jobs(), {
        games,
        seedsOf: (g) => ticket.games.find((t) => t.gameId === g.manifest.id)!.seeds,
        agent: 'ppo',
        agentOptions: { checkpoint: file, mode: req.mode, backend: 'cpu' },
        observation,
        batchSize: this.options.batchSize,
      });
      const row = await this.setPolicy(ticket, { runId });
      this.follow(row);
      return jsonResponse(202, { ticket: ticketJson(row) }, { location: `/api/tickets/${ticket.id}` });
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/policy-runs failed:', e);
      return new ApiError('INTERNAL', 'The server failed to start the policy run').toResponse();
    }
  }

  /** Follows again the runs a restarted server was playing (their jobs are on the queue still). */
  async resume(): Promise<number> {
    const open = await this.options.intake.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.mode, 'policy'), isNull(tickets.closedAt)));
    const playing = open.filter((t) => t.live?.policy?.runId && !t.live.policy.error);
    for (const t of playing) this.follow(t);
    return playing.length;
  }

  private follow(ticket: TicketRow): void {
    if (this.following.has(ticket.id)) return;
    const done = this.play(ticket)
      .catch(async (e: unknown) => {
        const error = e instanceof Error ? e.message : String(e);
        if (!this.closed) console.error(`arcade-gym: policy run on ${ticket.id} failed: ${error}`);
        await this.setPolicy(ticket, { error }, true).catch(() => null);
      })
      .finally(() => this.following.delete(ticket.id));
    this.following.set(ticket.id, done);
  }

  /** Waits for the run's batches, closes the ticket (its seeds may be shown from now on) and submits the episodes as the token's run. */
  private async play(ticket: TicketRow): Promise<void> {
    const policy = ticket.live!.policy!;
    const jobs = await this.options.jobs();
    await waitForEvalRun(jobs, policy.runId!, { pollMs: this.options.pollMs ?? 500 });
    const episodes = (await evalRunRecords(jobs, policy.runId!)).map((r) => JSON.parse(r.record) as EpisodeRecord);
    const [closed] = await this.options.intake.db
      .update(tickets)
      .set({ closedAt: new Date() })
      .where(and(eq(tickets.id, ticket.id), isNull(tickets.closedAt)))
      .returning();
    if (!closed) return;
    const sub = RunSubmission.parse({
      id: `policy_${ticket.id.slice(4)}`,
      agent: ticket.live!.agent,
      kind: 'evaluation',
      settings: {
        observation: ticket.live!.observation as ObservationKind[],
        harness: `policy run (${policy.algorithm} checkpoint, ${policy.mode})`,
        codeVersion: `checkpoint sha256 ${policy.checkpointSha256}`,
      },
      ticket: ticket.id,
      episodes,
    });
    const hash = createHash('sha256').update(JSON.stringify(sub)).digest('hex');
    const answer = await intake(this.options.intake, { tokenId: ticket.tokenId, admin: false }, sub, hash);
    if (answer.body.error) throw new Error(`${answer.body.error.code}: ${answer.body.error.message}`);
  }

  private async setPolicy(ticket: TicketRow, patch: { runId?: string; error?: string }, close = false): Promise<TicketRow> {
    const current = await ownTicket(this.options.intake.db, ticket.id, ticket.tokenId);
    const live = { ...current.live!, policy: { ...current.live!.policy!, ...patch } };
    const [row] = await this.options.intake.db
      .update(tickets)
      .set({ live, ...(close && !current.closedAt ? { closedAt: new Date() } : {}) })
      .where(eq(tickets.id, ticket.id))
      .returning();
    return row;
  }

  /** Stops following (the jobs stay on the queue; resume() takes them up again). */
  async close(): Promise<void> {
    this.closed = true;
  }

  /** Waits for every run being followed (tests). */
  async idle(): Promise<void> {
    while (this.following.size) await Promise.all([...this.following.values()]);
  }
}

function tooLarge(): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `A checkpoint is at most ${MAX_CHECKPOINT_BYTES} bytes`, { maxBytes: MAX_CHECKPOINT_BYTES });
}
