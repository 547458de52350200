/**
 * The site's half of live tickets: issuing one puts its `live` job on the queue (a worker takes it
 * and hosts the ticket, jobs/live-jobs.ts), and `/api/live/<ticket>/<call>` forwards each call to
 * the worker that hosts it: directly when that worker runs in this process, over HTTP otherwise.
 * Players that can reach the worker call its endpoint (`ticket.live.endpoint`) and skip this hop;
 * browsers on the site's pages, and clients that cannot, come through here.
 */
import { eq } from 'drizzle-orm';
import { tickets } from '../drizzle/schema';
import type { JobQueue } from '../jobs/queue';
import { ApiError } from './api-error';
import type { Db } from './db';
import { type LiveCall, type LiveCallName, liveCallOf, responseOf } from './live-call';
import { localLivePlay } from './live-listener';
import { openLiveTicket } from './live-play';
import type { TicketRow } from './tickets';

export interface LiveRoutesOptions {
  db: Db;
  /** The queue live jobs go on. */
  jobs: () => Promise<JobQueue>;
  /** Called once a live job is on the queue: wakes a worker of this process, which polls otherwise. */
  enqueued?: () => void;
  /** How long a call (and a ticket's issue, so that its answer names the endpoint) waits for a worker to take the ticket. Default 10 s. */
  hostWaitMs?: number;
}

const POLL_MS = 25;
/** Tickets whose host this process remembers; the oldest is forgotten past this. */
const MAX_REMEMBERED_HOSTS = 10_000;

/** A call the host it was sent to did not take: it no longer hosts the ticket, or no longer listens. */
const MOVED = Symbol('moved');

function hostGone(ticketId: string): ApiError {
  return new ApiError(
    'BUSY',
    `The worker playing live ticket ${ticketId} does not answer: another worker takes the ticket within a minute; retry then`,
    { ticket: ticketId },
    { 'retry-after': '5' },
  );
}

/** The fetch failed before the request reached anyone (nothing listens there now), so sending it elsewhere is safe. */
function refused(e: unknown): boolean {
  return (e as { cause?: { code?: string } })?.cause?.code === 'ECONNREFUSED';
}

/** The host's answer says it does not play the ticket (it moved to another worker), so the call was not played. */
function notHosted(status: number, body: Uint8Array): boolean {
  if (status !== 503) return false;
  try {
    return (JSON.parse(Buffer.from(body).toString('utf8')) as { error?: { code?: string } }).error?.code === 'UNAVAILABLE';
  } catch {
    return false;
  }
}

export class LiveRoutes {
  /**
   * Each ticket's host as last read, so that a call in play costs no database round trip; a host
   * that turns out not to take the call any more is read again (see `call`).
   */
  private readonly hosts = new Map<string, string>();

  constructor(private readonly opts: LiveRoutesOptions) {}

  private async hostUrl(ticketId: string): Promise<string | null> {
    const [row] = await this.opts.db.select({ live: tickets.live }).from(tickets).where(eq(tickets.id, ticketId));
    const url = row?.live?.host?.url ?? null;
    this.hosts.delete(ticketId);
    if (url) {
      if (this.hosts.size >= MAX_REMEMBERED_HOSTS) this.hosts.delete(this.hosts.keys().next().value!);
      this.hosts.set(ticketId, url);
    }
    return url;
  }

  private async waitForHost(ticketId: string): Promise<string | null> {
    const until = Date.now() + (this.opts.hostWaitMs ?? 10_000);
    for (;;) {
      const url = await this.hostUrl(ticketId);
      if (url || Date.now() >= until) return url;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Puts a new live ticket's job on the queue and waits (a bounded time) for a worker to take it; the ticket as it then stands. */
  async dispatch(ticket: TicketRow): Promise<TicketRow> {
    const { enqueueLiveTicket } = await import('../jobs/live-jobs');
    await enqueueLiveTicket(await this.opts.jobs(), ticket);
    this.opts.enqueued?.();
    await this.waitForHost(ticket.id);
    const [row] = await this.opts.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    return row ?? ticket;
  }

  /**
   * One call of a live ticket's player, answered by the worker that hosts the ticket. The host is
   * the one remembered from an earlier call when there is one; when it does not take the call (it
   * answers that it does not play the ticket, or nothing listens at its address any more), neither
   * has played it, so the host is read again and the call sent there once.
   */
  async call(name: LiveCallName, ticketId: string, request: Request): Promise<Response> {
    try {
      const call = await liveCallOf(request);
      const remembered = this.hosts.get(ticketId);
      if (remembered) {
        const answer = await this.forward(name, ticketId, call, remembered);
        if (answer !== MOVED) return answer;
      }
      const url = await this.currentHost(ticketId, call);
      const answer = await this.forward(name, ticketId, call, url);
      if (answer !== MOVED) return answer;
      this.hosts.delete(ticketId);
      throw hostGone(ticketId);
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error(`POST /api/live/${name} failed:`, e);
      return new ApiError('INTERNAL', `The server failed to ${name} the live episode`).toResponse();
    }
  }

  /** The ticket's host as the database has it now, waiting (a bounded time) for a worker to take the caller's open ticket. */
  private async currentHost(ticketId: string, call: LiveCall): Promise<string> {
    const url = await this.hostUrl(ticketId);
    if (url) return url;
    // Nobody hosts it (yet, or any more): say why if the ticket is not the caller's open one, else wait for a worker.
    await openLiveTicket(this.opts.db, call.authorization, ticketId);
    const waited = await this.waitForHost(ticketId);
    if (!waited) throw new ApiError('BUSY', `No worker has taken live ticket ${ticketId} yet: retry shortly`, { ticket: ticketId }, { 'retry-after': '2' });
    return waited;
  }

  /** The call sent to `url` (in this process when that worker runs here): its answer, or MOVED when that host did not take it. */
  private async forward(name: LiveCallName, ticketId: string, call: LiveCall, url: string): Promise<Response | typeof MOVED> {
    const local = localLivePlay(url);
    if (local) {
      const reply = await local.call(name, ticketId, call);
      return notHosted(reply.status, reply.body) ? MOVED : responseOf(reply);
    }
    let answer: globalThis.Response;
    try {
      answer = await fetch(`${url}/live/${encodeURIComponent(ticketId)}/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(call.authorization ? { authorization: call.authorization } : {}),
          ...(call.binary ? { accept: 'application/octet-stream' } : {}),
        },
        body: call.body,
      });
    } catch (e) {
      if (refused(e)) return MOVED;
      this.hosts.delete(ticketId);
      throw hostGone(ticketId);
    }
    const body = new Uint8Array(await answer.arrayBuffer());
    if (notHosted(answer.status, body)) return MOVED;
    const retryAfter = answer.headers.get('retry-after');
    return new Response(body, {
      status: answer.status,
      headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
    });
  }
}
