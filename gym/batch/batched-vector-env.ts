import type { CatalogEntry } from '../catalog-schema';
import { AutoresetVectorEnv, type ResetOutcome, type SubEnvOutcome, type VectorStepWork } from '../core/autoreset-vector-env';
import { FRAME_HASH_UNAVAILABLE, type ResetInfo } from '../env/env';
import { resolveEnvOptions } from '../env/resolve-options';
import { EpisodeAccount } from '../env/episode-account';
import type { Observation } from '../env/observation';
import type { EnvOptions } from '../env/options';
import { resetPlan } from '../env/reset-plan';
import { resolveAction } from '../env/resolve-action';
import { stickyFor } from '../env/sticky-actions';
import { ArcadeGymError } from '../errors';
import { BrowserPool } from '../pool/browser-pool';
import { causeOf, type EpisodeOutcome, type FaultCause, type PooledStepInfo, type RecoveryEvent } from '../pool/outcome';
import { SeededRandom } from '../random/seeded-random';
import { gameIdentity, observationRequest, pageObservation, type PageReading, resetInfo, stepInfo } from '../env/page-result';
import type { PageStepRequest, PageStepResult } from '../runtime/protocol';
import type { Action, GuiAction } from '../schema/action';
import type { EpisodeRecord } from '../schema/records';
import { BatchedPage, BatchPageFault, batchProblem, type InstanceResult } from './batched-page';
import { measuredInstancesPerPage } from './instances-per-page';
import type { Answer, Instance, PageHolder, PendingStep } from './instances';
import { replayInPage } from './page-replay';
import type { BatchedVectorEnvOptions } from './options';

/** The pool schema's most browsers. */
const MAX_OWN_BROWSERS = 64;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * `numEnvs` copies of one game, several per browser page (gym/batch/host-page.ts): a page's
 * instances are stepped, reset and replayed by one call each, and pages run side by side.
 * It is a gym/core AutoresetVectorEnv (autoreset is the base's, as SyncVectorEnv's), and each instance's
 * episode record is byte-identical to a single-instance env's with the same seed and actions.
 *
 * Faults: a page that crashes, hangs or loses its browser is rebuilt (in a healthy browser of
 * the pool) by replaying every live instance's seed and actions, checked step by step against
 * what was seen, and the step is retried; nothing is lost. An exception in one instance's
 * document rebuilds that instance alone. An instance that keeps failing (more than
 * `maxRecoveries` times in a step; on a hang, the instance the page was stuck in) is ended as
 * truncated with the cause in `infos[i].failure`, as PooledEnv does, and the others go on.
 */
export class BatchedVectorEnv extends AutoresetVectorEnv<Observation, Action | number, ResetInfo, PooledStepInfo> {
  readonly game: CatalogEntry;
  readonly pool: BrowserPool;
  readonly maxSteps: number;
  readonly msPerStep: number;
  private readonly env: EnvOptions;
  /** What each step reads from the page (batched games have no DOM pixels: batchProblem). */
  private readonly reading: PageReading;
  private readonly ownsPool: boolean;
  private readonly maxRecoveries: number;
  private readonly onEpisode?: (index: number, outcome: EpisodeOutcome) => void;
  private readonly instances: Instance[];
  private readonly pages: PageHolder[] = [];
  private readonly requestedPerPage: number | null;
  private perPage: number | null = null;

  constructor(options: BatchedVectorEnvOptions) {
    const { numEnvs, seed, autoreset, pool, poolOptions, maxRecoveries, onEpisode, instancesPerPage, ...env } = options;
    if (!Number.isInteger(numEnvs) || numEnvs < 1)
      throw new ArcadeGymError('INVALID_OPTIONS', `makeVectorEnv: numEnvs must be a positive integer, got ${numEnvs}`);
    if (instancesPerPage !== undefined && (!Number.isInteger(instancesPerPage) || instancesPerPage < 1))
      throw new ArcadeGymError('INVALID_OPTIONS', `instancesPerPage must be a positive integer, got ${instancesPerPage}`);
    // The one reading of the options (validation, spaces, budgets), as the single env reads them.
    const single = resolveEnvOptions({ ...env, seed: seed ?? 0 });
    super(numEnvs, single.observationSpace, single.actionSpace, autoreset);
    this.env = single.options;
    this.game = single.game;
    const problem = batchProblem(this.game, this.env);
    if (problem) throw new ArcadeGymError('INVALID_OPTIONS', `${this.game.manifest.id} cannot run batched: ${problem}`);
    this.reading = { kinds: single.observationKinds, pixels: this.env.pixels, actionMask: this.game.actionMask };
    this.requestedPerPage = instancesPerPage ?? null;
    this.maxSteps = single.maxSteps;
    this.msPerStep = single.msPerStep;
    this.maxRecoveries = maxRecoveries ?? 3;
    this.onEpisode = onEpisode;
    // Room for a page per env (a game can measure best at one instance per page); browsers start only as pages need them.
    this.pool = pool ?? new BrowserPool({ pagesPerBrowser: 8, maxBrowsers: Math.min(MAX_OWN_BROWSERS, Math.ceil(numEnvs / 8)), ...poolOptions });
    this.ownsPool = !pool;
    this.instances = Array.from({ length: numEnvs }, (_, index) => {
      const envSeed = ((seed ?? 0) + index) >>> 0;
      return {
        index,
        page: -1,
        slot: -1,
        seeds: new SeededRandom(envSeed),
        seeded: false,
        pendingSeed: null,
        seed: envSeed,
        episode: null,
        actions: [],
        seen: [],
        recoveries: [],
        reported: true,
        endOutcome: null,
        lastObservation: undefined,
        lastInfo: undefined,
      };
    });
  }

  /** Instances per page: as asked, else this game's measured size (gym/batch/instances-per-page.ts); fixed at the first reset. */
  get instancesPerPage(): number | null {
    return this.perPage;
  }

  /** Places the instances on pages, once: evenly (10 envs at 8 per page are two pages of 5, not 8 and 2). */
  private async layout(): Promise<void> {
    if (this.pages.length) return;
    let n = this.requestedPerPage;
    if (n === null) {
      const slot = await this.pool.lease();
      try {
        n = await measuredInstancesPerPage(this.game, await slot.healthyBrowser(), { numEnvs: this.numEnvs, env: this.env });
      } finally {
        slot.release();
      }
    }
    if (this.pages.length) return;
    // No more pages than the pool can ever hold: past that, pages take more instances than measured rather than failing to reset.
    const pageCount = Math.min(this.pool.capacity, Math.ceil(this.numEnvs / Math.min(n, this.numEnvs)));
    const perPage = Math.ceil(this.numEnvs / pageCount);
    this.perPage = perPage;
    for (let index = 0; index < pageCount; index++) this.pages.push({ index, slot: null, page: null, instances: [] });
    for (const inst of this.instances) {
      inst.page = Math.floor(inst.index / perPage);
      inst.slot = inst.index % perPage;
      this.pages[inst.page].instances.push(inst);
    }
  }

  /** Sub-env i's current episode: its seed and the steps taken (for inspection and tests). */
  subEnv(i: number): { seed: number; steps: number; inProgress: boolean } | null {
    const inst = this.instances[i];
    if (!inst) return null;
    return { seed: inst.seed, steps: inst.episode?.length ?? 0, inProgress: !!inst.episode && !inst.episode.done };
  }

  /** The browser page sub-env i lives in (shared with its page-mates): for fault drills and watching. */
  pageOf(i: number): BatchedPage | null {
    const inst = this.instances[i];
    return inst ? this.pages[inst.page].page : null;
  }

  protected async resetEnvs(seeds: readonly (number | undefined)[]): Promise<ResetOutcome<Observation, ResetInfo>[]> {
    await this.layout();
    const results = await Promise.all(
      this.pages.map((p) =>
        this.resetInstances(
          p,
          p.instances.map((inst) => [inst, seeds[inst.index]] as const),
        ),
      ),
    );
    const byIndex = new Map(results.flat().map((r) => [r.inst.index, r]));
    return this.instances.map((inst) => byIndex.get(inst.index)!);
  }

  /** Every action is checked before any env steps. */
  protected override checkActions(actions: readonly (Action | number)[]): void {
    for (const a of actions) resolveAction(this.game.manifest, a);
  }

  /** Pages side by side; in each, one call steps its instances, then one loads those that reset. */
  protected async runStep(work: VectorStepWork<Action | number>): Promise<Map<number, SubEnvOutcome<Observation, PooledStepInfo, ResetInfo>>> {
    const outcomes = new Map<number, SubEnvOutcome<Observation, PooledStepInfo, ResetInfo>>();
    const actions = new Map(work.steps.map((s) => [s.index, s.action]));
    const resets = new Set(work.resets);
    await Promise.all(
      this.pages.map(async (p) => {
        const toStep = p.instances.filter((inst) => actions.has(inst.index));
        const ended: Instance[] = [];
        if (toStep.length) {
          const results = await this.stepInstances(
            p,
            // Sticky actions: an instance may give its game the previous action instead of the one offered.
            toStep.map((inst) => {
              const repeat = inst.episode!.repeatedAction();
              return { inst, ...resolveAction(this.game.manifest, repeat ?? actions.get(inst.index)!) };
            }),
          );
          for (const [inst, step] of results) {
            outcomes.set(inst.index, { step });
            if (work.resetOnEnd && (step.terminated || step.truncated)) ended.push(inst);
          }
        }
        const toReset = [...p.instances.filter((inst) => resets.has(inst.index)), ...ended];
        if (!toReset.length) return;
        for (const r of await this.resetInstances(
          p,
          toReset.map((inst) => [inst, undefined] as const),
        ))
          outcomes.set(r.inst.index, { ...outcomes.get(r.inst.index), reset: r });
      }),
    );
    return outcomes;
  }

  // ---------------------------------------------------------------- pages

  /** The page, opened (or rebuilt after a fault, replaying every live episode in it) if need be. */
  private async livePage(p: PageHolder): Promise<BatchedPage> {
    if (p.page && !p.page.fault) return p.page;
    const rebuilding = !!p.page;
    const old = p.page;
    p.page = null;
    if (old) void old.close();
    p.slot ??= await this.pool.lease();
    const browser = await p.slot.healthyBrowser({ probe: rebuilding, newEpisode: true });
    const page = await BatchedPage.open(browser, this.game, this.env);
    p.page = page;
    const live = p.instances.filter((inst) => inst.episode && !inst.episode.done);
    if (live.length) await this.rebuild(page, live);
    return page;
  }

  /** Rebuilds `insts` in `page` by replay (page-replay.ts); an instance whose replay differs is ended. Page faults are thrown. */
  private rebuild(page: BatchedPage, insts: Instance[]): Promise<void> {
    return replayInPage(page, this.game, this.msPerStep, insts, (inst, cause) => void this.abandon(inst, cause));
  }

  /**
   * Steps `steps` in page `p` until each has a result: page faults rebuild the page and retry,
   * an instance's own exception rebuilds that instance; past `maxRecoveries` faults an
   * instance's episode is ended as truncated with the cause.
   */
  private async stepInstances(p: PageHolder, steps: { inst: Instance; action: Action; gui: GuiAction }[]): Promise<[Instance, Answer][]> {
    const done: [Instance, Answer][] = [];
    let pending: PendingStep[] = steps.map((s) => ({ inst: s.inst, recorded: s.action, gui: s.gui, faults: 0, rebuilds: 0, cause: null, started: 0 }));
    /** `blamed`: the fault counts against this instance's recoveries; the others only note the rebuild. */
    const lost = (s: PendingStep, cause: FaultCause, blamed: boolean) => {
      if (blamed) s.faults++;
      s.rebuilds++;
      s.cause ??= cause;
      s.started ||= performance.now();
    };
    // Those past their recoveries, or whose episode a rebuild had to end, are answered as given up.
    const settle = () => {
      pending = pending.filter((s) => {
        if (s.inst.episode && !s.inst.episode.done && s.faults <= this.maxRecoveries) return true;
        done.push([s.inst, this.giveUp(s.inst, s.cause ?? { code: 'PAGE_ERROR', message: 'lost' }, s.rebuilds)]);
        return false;
      });
    };
    for (let round = 0; pending.length; round++) {
      if (round > 0) await sleep(Math.min(100 * round, 500));
      let page: BatchedPage;
      try {
        page = await this.livePage(p);
      } catch (e) {
        if (e instanceof ArcadeGymError && e.code === 'INVALID_OPTIONS') throw e;
        for (const s of pending) lost(s, causeOf(e), true);
        settle();
        continue;
      }
      settle();
      if (!pending.length) break;
      let results: InstanceResult<PageStepResult>[];
      try {
        results = await page.step(pending.map((s) => [s.inst.slot, this.request(s.inst, s.gui)] as const));
      } catch (e) {
        // A hang is charged to the instance the page was stuck in; a crash to all (it cannot say whose it was).
        const culprit = e instanceof BatchPageFault ? e.culprit : null;
        const known = culprit !== null && pending.some((s) => s.inst.slot === culprit);
        for (const s of pending) lost(s, causeOf(e), !known || s.inst.slot === culprit);
        settle();
        continue;
      }
      const failed: PendingStep[] = [];
      const answered: [PendingStep, PageStepResult][] = [];
      pending.forEach((s, k) => {
        const r = results[k];
        if (r.error !== undefined) {
          lost(s, { code: 'PAGE_ERROR', message: r.error }, true);
          failed.push(s);
        } else answered.push([s, r.ok]);
      });
      await this.accept(page, answered, done);
      pending = failed;
      settle();
      // An exception leaves its document half-stepped: those instances are rebuilt in place.
      if (pending.length)
        await this.rebuild(
          page,
          pending.map((s) => s.inst),
        ).catch(() => undefined);
      settle();
    }
    return done;
  }

  private request(inst: Instance, gui: GuiAction): PageStepRequest {
    // The final frame hash is read in the step the budget runs out on; a terminal step asks separately.
    const lastByBudget = inst.episode!.length + 1 >= this.maxSteps;
    return { action: gui, ms: this.msPerStep, obs: this.observationRequest(lastByBudget) };
  }

  /** Books the steps the page answered; hashes the last frame of the episodes they ended. */
  private async accept(page: BatchedPage, ok: [PendingStep, PageStepResult][], done: [Instance, Answer][]): Promise<void> {
    const booked = ok.map(([s, r]) => {
      const inst = s.inst;
      const ep = inst.episode!;
      const { reward, terminated, truncated } = ep.record(s.recorded, r.state, r.virtualTimeMs);
      inst.actions.push(s.gui);
      inst.seen.push({ state: r.state, virtualTimeMs: r.virtualTimeMs });
      const info: PooledStepInfo = stepInfo(ep.length, r);
      if (s.rebuilds > 0) {
        const event: RecoveryEvent = {
          atStep: ep.length - 1,
          cause: s.cause!,
          attempts: s.rebuilds,
          replayedSteps: ep.length - 1,
          ms: Math.round(performance.now() - s.started),
        };
        inst.recoveries.push(event);
        info.recovered = event;
      }
      const result = { observation: this.toObservation(r), reward, terminated, truncated, info };
      inst.lastObservation = result.observation;
      inst.lastInfo = info;
      return { inst, r, result };
    });
    const hashless = booked.filter((b) => b.inst.episode!.done && b.r.frameHash === null);
    let hashes: InstanceResult<string>[] = [];
    if (hashless.length) hashes = await page.frameHash(hashless.map((b) => b.inst.slot)).catch(() => []);
    for (const b of booked) {
      const ep = b.inst.episode!;
      if (ep.done) {
        const k = hashless.indexOf(b);
        const hash = k < 0 ? b.r.frameHash! : (hashes[k]?.ok ?? FRAME_HASH_UNAVAILABLE);
        const record = this.episodeRecord(ep, hash);
        b.result.info.episode = record;
        const outcome: EpisodeOutcome = { status: b.inst.recoveries.length ? 'recovered' : 'complete', record, recoveries: [...b.inst.recoveries] };
        b.result.info.outcome = outcome;
        this.report(b.inst, outcome);
      }
      done.push([b.inst, b.result]);
    }
  }

  /** Loads fresh episodes in `resets` (a seed each, or the next of its sequence). */
  private async resetInstances(
    p: PageHolder,
    resets: readonly (readonly [Instance, number | undefined])[],
  ): Promise<
    ({ inst: Instance; observation: Observation; info: ResetInfo } | { inst: Instance; observation: Observation | undefined; failure: FaultCause })[]
  > {
    for (const [inst] of resets) this.abandon(inst, { code: 'ABANDONED', message: 'reset() before the episode ended' });
    const items = resets.map(([inst, seed]) => {
      inst.episode = null;
      const s = seed ?? inst.pendingSeed ?? this.nextSeed(inst);
      inst.seeded = true;
      if (!Number.isInteger(s) || s < 0 || s > 2 ** 32 - 1)
        throw new ArcadeGymError('INVALID_OPTIONS', `reset: seed must be an integer in [0, 2^32), got ${s}`);
      if (seed === undefined) inst.pendingSeed = s;
      else {
        // As gymnasium.Env.reset(seed=…): a seed reseeds the sequence the later unseeded resets draw from.
        inst.seeds = new SeededRandom(seed);
        inst.pendingSeed = null;
      }
      return { inst, seed: s };
    });
    const failure = (inst: Instance, cause: FaultCause) => ({ inst, observation: inst.lastObservation, failure: cause });
    let lastError: unknown = null;
    for (let attempt = 0; attempt <= this.maxRecoveries; attempt++) {
      if (attempt > 0) await sleep(100 * attempt);
      try {
        const page = await this.livePage(p);
        const loaded = await page.load(items.map(({ inst, seed }) => ({ slot: inst.slot, seed })));
        const plan = resetPlan(this.game.manifest, this.observationRequest(false));
        const readings = await page.run(items.map(({ inst }, k) => [inst.slot, loaded[k].error ? [] : plan] as const));
        return items.map(({ inst, seed }, k) => {
          const error = loaded[k].error ?? readings[k].error;
          const first = readings[k].ok?.at(-1);
          if (error !== undefined || !first) return failure(inst, { code: 'RUNTIME_MISSING', message: `${this.game.manifest.id}: ${error ?? 'no reading'}` });
          inst.seed = seed;
          inst.pendingSeed = null;
          inst.endOutcome = null;
          inst.episode = new EpisodeAccount(
            {
              identity: gameIdentity(this.game),
              seed,
              stepBudget: this.maxSteps,
              msPerStep: this.msPerStep,
              shaping: this.env.shaping,
              ...stickyFor(this.env),
            },
            first.state,
            true,
          );
          inst.actions = [];
          inst.seen = [{ state: first.state, virtualTimeMs: first.virtualTimeMs }];
          inst.recoveries = [];
          inst.reported = false;
          const observation = this.toObservation(first);
          inst.lastObservation = observation;
          inst.lastInfo = stepInfo(0, first);
          return { inst, observation, info: resetInfo(seed, first) };
        });
      } catch (e) {
        if (e instanceof ArcadeGymError && (e.code === 'INVALID_OPTIONS' || e.code === 'INVALID_VERIFIER_STATE')) throw e;
        lastError = e;
      }
    }
    const cause = causeOf(lastError);
    return items.map(({ inst }) =>
      failure(inst, { code: 'RESET_FAILED', message: `reset failed ${this.maxRecoveries + 1} times on fresh pages: ${cause.code}: ${cause.message}` }),
    );
  }

  private nextSeed(inst: Instance): number {
    // As ArcadeEnv: the first reset uses the env's seed, later ones continue its seeded sequence.
    if (!inst.seeded) return inst.seed;
    return inst.seeds.nextUint32();
  }

  // ---------------------------------------------------------------- episodes

  private report(inst: Instance, outcome: EpisodeOutcome): void {
    if (inst.reported) return;
    inst.reported = true;
    this.onEpisode?.(inst.index, outcome);
  }

  /** Ends a running episode without the page (lost, or not asked): truncated, frame hash unavailable. */
  private abandon(inst: Instance, cause: FaultCause): EpisodeOutcome | null {
    const ep = inst.episode;
    if (!ep || inst.reported) return null;
    ep.abandon();
    const outcome: EpisodeOutcome = { status: 'truncated', record: this.episodeRecord(ep, FRAME_HASH_UNAVAILABLE), recoveries: [...inst.recoveries], cause };
    inst.endOutcome = outcome;
    this.report(inst, outcome);
    return outcome;
  }

  /** The step answer of an episode given up: truncated on the last step that worked, the cause in info. */
  private giveUp(inst: Instance, cause: FaultCause, attempts: number) {
    const outcome = this.abandon(inst, cause) ?? inst.endOutcome!;
    const info: PooledStepInfo = { ...(inst.lastInfo as PooledStepInfo), failure: { ...outcome.cause!, attempts }, episode: outcome.record, outcome };
    delete info.recovered;
    delete info.gameErrors;
    return { observation: inst.lastObservation as Observation, reward: 0, terminated: false, truncated: true, info };
  }

  private episodeRecord(ep: EpisodeAccount, finalFrameHash: string): EpisodeRecord {
    const m = this.game.manifest;
    const browser = this.pages.find((p) => p.page)?.page?.browser;
    return ep.episodeRecord({
      viewport: { width: m.canvas.width, height: m.canvas.height },
      deviceScaleFactor: this.env.deviceScaleFactor,
      browser: { name: 'chromium', version: browser?.version() ?? 'unknown' },
      finalFrameHash,
    });
  }

  private observationRequest(withFrameHash: boolean) {
    return observationRequest(this.reading, withFrameHash);
  }

  private toObservation(r: PageStepResult): Observation {
    return pageObservation(this.reading, r);
  }

  /** Closes every page (episodes still running are reported as truncated, CLOSED) and the pool if it made one. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const inst of this.instances) this.abandon(inst, { code: 'CLOSED', message: 'closed before the episode ended' });
    await Promise.all(
      this.pages.map(async (p) => {
        await p.page?.close();
        p.page = null;
        p.slot?.release();
        p.slot = null;
      }),
    );
    if (this.ownsPool) await this.pool.close();
  }
}
