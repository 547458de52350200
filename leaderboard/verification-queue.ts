/**
 * The verification queue: submissions wait here between `202 Accepted` and their replay. Behind
 * a small interface (enqueue, status, a worker loop) so that a durable queue (a PostgreSQL job
 * queue) can replace this in-process one; what a job does is verify-run.ts's, and the state a
 * client sees lives in the submissions table, not here.
 *
 * Scheduling is fair across owners (tokens): owners take turns, one job each, and an owner with
 * nothing running goes before one that has. Each job runs under its wall-clock budget: when it is
 * spent the job's signal aborts, and its slot is freed shortly after whether or not the job has
 * returned, so one slow submission delays others by at most its budget.
 */

export interface VerificationJob {
  submissionId: string;
  /** Jobs of one owner (a token) take turns with other owners' jobs. */
  owner: string;
  /** Wall-clock milliseconds the job may run once started. */
  budgetMs: number;
}

export type JobPosition = { state: 'queued'; ahead: number } | { state: 'running' };

/** Runs one job; `signal` aborts when the job's budget is spent (or the queue closes). */
export type JobRunner = (job: VerificationJob, signal: AbortSignal) => Promise<void>;

export interface VerificationQueue {
  enqueue(job: VerificationJob): Promise<void>;
  /** Where a job is; null when it is neither queued nor running (done, or never seen). */
  status(submissionId: string): Promise<JobPosition | null>;
  /** Starts the worker loop: `run` is called for each job, as slots free up. */
  start(run: JobRunner): void;
  /** Resolves once nothing is queued or running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export class BudgetSpentError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the verification budget of ${budgetMs} ms was spent`);
    this.name = 'BudgetSpentError';
  }
}

export interface InProcessQueueOptions {
  /** Jobs verified at once (each replays a couple of episodes at a time). Default 2. */
  slots?: number;
  /** After a job's budget is spent, how long it may take to stop before its slot is reused anyway. */
  graceMs?: number;
}

interface Running {
  job: VerificationJob;
  controller: AbortController;
}

export class InProcessVerificationQueue implements VerificationQueue {
  private readonly slots: number;
  private readonly graceMs: number;
  /** Waiting jobs per owner, oldest first. */
  private readonly waiting = new Map<string, VerificationJob[]>();
  /** Owners with waiting jobs, in the order they get their next turn. */
  private turns: string[] = [];
  private readonly running = new Map<string, Running>();
  private runner: JobRunner | null = null;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(opts: InProcessQueueOptions = {}) {
    this.slots = Math.max(1, opts.slots ?? 2);
    this.graceMs = opts.graceMs ?? 2_000;
  }

  async enqueue(job: VerificationJob): Promise<void> {
    if (this.closed) throw new Error('the verification queue is closed');
    if (this.running.has(job.submissionId) || [...this.waiting.values()].some((js) => js.some((j) => j.submissionId === job.submissionId))) return;
    const list = this.waiting.get(job.owner);
    if (list) list.push(job);
    else {
      this.waiting.set(job.owner, [job]);
      this.turns.push(job.owner);
    }
    this.pump();
  }

  async status(submissionId: string): Promise<JobPosition | null> {
    if (this.running.has(submissionId)) return { state: 'running' };
    const order = this.order();
    const i = order.findIndex((j) => j.submissionId === submissionId);
    return i < 0 ? null : { state: 'queued', ahead: i };
  }

  start(run: JobRunner): void {
    this.runner = run;
    this.pump();
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    this.turns = [];
    for (const r of this.running.values()) r.controller.abort(new Error('the verification queue closed'));
    await this.idle();
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.turns.length === 0;
  }

  private runningOwners(): Map<string, number> {
    const n = new Map<string, number>();
    for (const r of this.running.values()) n.set(r.job.owner, (n.get(r.job.owner) ?? 0) + 1);
    return n;
  }

  /** The owner whose job runs next: the first in turn with nothing running, else the first in turn. */
  private static nextOwner(turns: readonly string[], busy: ReadonlyMap<string, number>): string | undefined {
    return turns.find((o) => !busy.get(o)) ?? turns[0];
  }

  /** Takes the next job off the queue, moving its owner to the back of the turns. */
  private take(waiting: Map<string, VerificationJob[]>, turns: string[], busy: Map<string, number>): VerificationJob | undefined {
    const owner = InProcessVerificationQueue.nextOwner(turns, busy);
    if (owner === undefined) return undefined;
    const list = waiting.get(owner)!;
    const job = list.shift()!;
    turns.splice(turns.indexOf(owner), 1);
    if (list.length) turns.push(owner);
    else waiting.delete(owner);
    busy.set(owner, (busy.get(owner) ?? 0) + 1);
    return job;
  }

  /** The waiting jobs in the order they would start if nothing else arrived. */
  private order(): VerificationJob[] {
    const waiting = new Map([...this.waiting].map(([o, js]) => [o, [...js]]));
    const turns = [...this.turns];
    const busy = this.runningOwners();
    const out: VerificationJob[] = [];
    for (let job = this.take(waiting, turns, busy); job; job = this.take(waiting, turns, busy)) out.push(job);
    return out;
  }

  private pump(): void {
    while (this.runner && !this.closed && this.running.size < this.slots) {
      const job = this.take(this.waiting, this.turns, this.runningOwners());
      if (!job) break;
      this.launch(job, this.runner);
    }
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private launch(job: VerificationJob, run: JobRunner): void {
    const controller = new AbortController();
    this.running.set(job.submissionId, { job, controller });
    let grace: NodeJS.Timeout | undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(budget);
      clearTimeout(grace);
      this.running.delete(job.submissionId);
      this.pump();
    };
    const budget = setTimeout(() => {
      controller.abort(new BudgetSpentError(job.budgetMs));
      grace = setTimeout(release, this.graceMs);
    }, job.budgetMs);
    run(job, controller.signal)
      .catch((e: unknown) => console.error(`verification of submission ${job.submissionId} failed:`, e))
      .finally(release);
  }
}
