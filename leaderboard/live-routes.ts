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
import { type LiveCallName, liveCallOf, responseOf } from './live-call';
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

export class LiveRoutes {
  constructor(private readonly opts: LiveRoutesOptions) {}

  private async hostUrl(ticketId: string): Promise<string | null> {
    const [row] = await this.opts.db.select({ live: tickets.live }).from(tickets).where(eq(tickets.id, ticketId));
    return row?.live?.host?.url ?? null;
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

  /** One call of a live ticket's player, answered by the worker that hosts the ticket. */
  async call(name: LiveCallName, ticketId: string, request: Request): Promise<Response> {
    try {
      const call = await liveCallOf(request);
      let url = await this.hostUrl(ticketId);
      if (!url) {
        // Nobody hosts it (yet, or any more): say why if the ticket is not the caller's open one, else wait for a worker.
        await openLiveTicket(this.opts.db, call.authorization, ticketId);
        url = await this.waitForHost(ticketId);
        if (!url) throw new ApiError('BUSY', `No worker has taken live ticket ${ticketId} yet: retry shortly`, { ticket: ticketId }, { 'retry-after': '2' });
      }
      const local = localLivePlay(url);
      if (local) return responseOf(await local.call(name, ticketId, call));
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
      } catch {
        throw new ApiError(
          'BUSY',
          `The worker playing live ticket ${ticketId} does not answer: another worker takes the ticket within a minute; retry then`,
          { ticket: ticketId },
          { 'retry-after': '5' },
        );
      }
      const retryAfter = answer.headers.get('retry-after');
      return new Response(await answer.arrayBuffer(), {
        status: answer.status,
        headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
      });
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error(`POST /api/live/${name} failed:`, e);
      return new ApiError('INTERNAL', `The server failed to ${name} the live episode`).toResponse();
    }
  }
}
