/**
 * Live tickets on the job queue: issuing a live ticket enqueues a `live` job; a worker that takes
 * it hosts the ticket (leaderboard/live-play.ts) behind its own listener until the ticket closes,
 * renewing the job's short lease as it goes. A worker that stops hands the ticket back at once; one
 * that dies stops renewing, and the next worker takes the ticket within a lease (and plays the
 * episode cut off again on a fresh seed). Live jobs run in a Worker of their own, so a ticket held for hours never takes an
 * evaluation or verification slot.
 */
import type { PoolOptionsInput } from '../gym/pool';
import { LivePlay } from '../leaderboard/live-play';
import { type LiveListenOptions, type LiveListener, listenLive } from '../leaderboard/live-listener';
import type { IntakeDeps } from '../leaderboard/submissions';
import { ticketBuilds, type TicketRow } from '../leaderboard/tickets';
import { LiveTicketJob } from './kinds';
import { type JobQueue, LIVE_LEASE_S } from './queue';
import { errorMessage, type JobHandler, Worker } from './worker';

/** A live job's lease: LIVE_LEASE_S, or ARCADE_LIVE_LEASE_S (how soon a dead worker's tickets move on). */
export function liveLeaseS(value = process.env.ARCADE_LIVE_LEASE_S): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n >= 1 && n <= 3600 ? n : LIVE_LEASE_S;
}

export async function enqueueLiveTicket(jobs: JobQueue, ticket: TicketRow): Promise<void> {
  const leaseS = liveLeaseS();
  const data: LiveTicketJob = LiveTicketJob.parse({ ticketId: ticket.id, builds: ticketBuilds(ticket), leaseS });
  await jobs.boss.send('live', data, { expireInSeconds: leaseS });
}

/** Hosts the job's ticket until it closes; renews the lease meanwhile, and gives the ticket up if the lease is lost. */
export function liveTicketHandler(live: LivePlay, log: (line: string) => void = console.log): JobHandler {
  return async (ctx) => {
    const { ticketId, leaseS } = LiveTicketJob.parse(ctx.data);
    const lost = new AbortController();
    const renew = setInterval(
      () =>
        void ctx
          .renewLease(leaseS)
          .then((held) => {
            if (!held) {
              log(`lost the lease of live ticket ${ticketId}: another worker plays it now`);
              lost.abort();
            }
          })
          .catch((e: unknown) => log(`renewing the lease of live ticket ${ticketId} failed: ${errorMessage(e)}`)),
      (leaseS * 1000) / 3,
    );
    try {
      const how = await live.host(ticketId, AbortSignal.any([ctx.signal, lost.signal]));
      // Handed back because the worker stops: the worker releases the job to the queue. (A lost
      // lease returns: the job's completion is fenced, and the attempt now held elsewhere is left alone.)
      if (how === 'released' && ctx.signal.aborted) throw new Error(`live ticket ${ticketId} handed back: the worker is stopping`);
    } finally {
      clearInterval(renew);
    }
  };
}

export interface LiveHostOptions {
  jobs: JobQueue;
  intake: IntakeDeps;
  /** Browsers of the live sessions, and how many sessions at once. */
  pool?: PoolOptionsInput;
  maxSessions?: number;
  /** Where the listener listens, and the URL players reach it at. */
  listen?: LiveListenOptions;
  /** Live tickets hosted at once (default 16). */
  tickets?: number;
  pollMs?: number;
  log?: (line: string) => void;
}

export interface LiveHost {
  live: LivePlay;
  listener: LiveListener;
  worker: Worker;
  /** Stops taking tickets, hands those in play back to the queue, closes the listener and the browsers. */
  stop(): Promise<void>;
}

/** A worker of the `live` queue with its LivePlay and listener: what `arcade-gym worker` and the site run. */
export async function startLiveHost(opts: LiveHostOptions): Promise<LiveHost> {
  const live = new LivePlay({ intake: opts.intake, pool: opts.pool, maxSessions: opts.maxSessions });
  const worker = new Worker({
    jobs: opts.jobs,
    queues: ['live'],
    handlers: { live: liveTicketHandler(live, opts.log) },
    concurrency: opts.tickets ?? 16,
    pollMs: opts.pollMs,
    log: opts.log,
  });
  const listener = await listenLive(live, worker.id, opts.listen);
  await worker.start();
  return {
    live,
    listener,
    worker,
    stop: async () => {
      // No grace: each ticket in play is handed back at once, for another worker to go on with.
      await worker.stop(0);
      await live.shutdown();
      await listener.close();
    },
  };
}
