import { makeGemmBlock, gemmBlock, type GemmLayout } from './cpu-gemm';

/**
 * A second thread for the CPU backend's large matrix products.
 *
 * Why: PPO's update runs while the game pages wait for the next rollout, so on the small machines
 * this gym runs on (2 cores: one for the browser, one for Node) the browser's core is idle exactly
 * when the learner needs more. C is split in two blocks of rows (or of columns, when it is wide);
 * this thread computes one and a worker the other, with the same kernel source. Each element is
 * still summed by the same loop in the same order, so the result has the same bits as on one
 * thread (cpu-gradients.test.ts runs both).
 *
 * Node only (worker_threads, SharedArrayBuffer, Atomics.wait on the main thread); in a browser,
 * or with ARCADE_CPU_THREADS=1, every product runs on the calling thread.
 */

/** Below this many multiply-adds a product is not worth a message to the worker (≈ 1 ms of work). */
export const PARALLEL_MIN_MACS = 1 << 20;

const IDLE = 0;
const DONE = 1;
const FAILED = 2;

interface Job {
  out: Float64Array;
  A: Float32Array;
  B: Float32Array;
  N: number;
  K: number;
  l: GemmLayout;
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

/** The worker's program: the kernel's own source, then a loop answering jobs through `control`. */
function workerSource(): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (f) => f; // esbuild's keepNames helper, referenced by the kernel's transpiled source
const gemmBlock = (${makeGemmBlock.toString()})();
const control = new Int32Array(workerData.control);
parentPort.on('message', (job) => {
  let state = ${DONE};
  try {
    gemmBlock(job.out, job.A, job.B, job.N, job.K, job.l, job.i0, job.i1, job.j0, job.j1);
  } catch {
    state = ${FAILED};
  } finally {
    Atomics.store(control, 0, state);
    Atomics.notify(control, 0);
  }
});
`;
}

type WorkerLike = { postMessage(job: Job): void; unref(): void };

export class GemmThreads {
  private constructor(
    private readonly worker: WorkerLike,
    private readonly control: Int32Array,
  ) {}

  private static instance: GemmThreads | null | undefined;

  /**
   * This thread's helper, started on first use and shared by every CPU backend of the thread
   * (their products run one at a time anyway, since each call blocks until it is done), or null
   * where there can be none (a browser, no SharedArrayBuffer, one core, ARCADE_CPU_THREADS=1).
   */
  static shared(): GemmThreads | null {
    if (GemmThreads.instance === undefined) GemmThreads.instance = GemmThreads.create();
    return GemmThreads.instance;
  }

  private static create(): GemmThreads | null {
    const proc = (globalThis as { process?: { env?: Record<string, string | undefined>; getBuiltinModule?: (id: string) => unknown } }).process;
    if (!proc?.getBuiltinModule || typeof SharedArrayBuffer === 'undefined') return null;
    if (proc.env?.ARCADE_CPU_THREADS === '1') return null;
    const os = proc.getBuiltinModule('node:os') as { availableParallelism?: () => number } | undefined;
    if ((os?.availableParallelism?.() ?? 1) < 2) return null;
    const wt = proc.getBuiltinModule('node:worker_threads') as { Worker: new (src: string, opts: object) => WorkerLike } | undefined;
    if (!wt) return null;
    const control = new Int32Array(new SharedArrayBuffer(4));
    const worker = new wt.Worker(workerSource(), { eval: true, workerData: { control: control.buffer } });
    // The worker must never keep a finished process alive.
    worker.unref();
    return new GemmThreads(worker, control);
  }

  /**
   * out += op(A)·op(B), split between this thread and the worker. All three arrays must be views
   * of SharedArrayBuffers (the backend's shared scratch), since the worker writes into `out`.
   */
  gemm(out: Float64Array, A: Float32Array, B: Float32Array, M: number, N: number, K: number, l: GemmLayout): void {
    const byRows = M >= N;
    const len = byRows ? M : N;
    const mid = Math.floor(len / 8) * 4; // half, on a 4-element block boundary
    if (mid === 0) {
      gemmBlock(out, A, B, N, K, l, 0, M, 0, N);
      return;
    }
    Atomics.store(this.control, 0, IDLE);
    const job: Job = byRows ? { out, A, B, N, K, l, i0: mid, i1: M, j0: 0, j1: N } : { out, A, B, N, K, l, i0: 0, i1: M, j0: mid, j1: N };
    this.worker.postMessage(job);
    if (byRows) gemmBlock(out, A, B, N, K, l, 0, mid, 0, N);
    else gemmBlock(out, A, B, N, K, l, 0, M, 0, mid);
    // Blocking is the point: the caller's API is synchronous, and the worker finishes its half soon after.
    while (Atomics.load(this.control, 0) === IDLE) Atomics.wait(this.control, 0, IDLE, 1000);
    if (Atomics.load(this.control, 0) === FAILED) throw new Error('cpu backend: the matmul worker thread failed');
  }
}
