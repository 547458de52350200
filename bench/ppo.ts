/**
 * PPO benchmark (npm run bench:ppo): matmul GFLOP/s, PPO update and inference throughput for
 * the MLP and the Nature-CNN on the WebGPU and CPU backends with identical inputs, and
 * env steps for PPO to reach a 20-episode mean return of 475 on CartPole. Prints a table;
 * the last line is one JSON object with the results.
 */
import { cartPoleTask, createNodeGpu, preferSwiftShaderWhenUnset } from '../gym';
import { ActorCritic, networkInputSize, type NetworkSpec, Adam, type Backend, CpuBackend, WebGpuBackend } from '../gym/nn';
import { Rng } from '../gym/random';
import { ActingSession, PpoLearner, type LearnerBatch, train } from '../gym/ppo';
import { SMOKE, smokeOr } from './smoke';

type BackendName = 'cpu' | 'webgpu';
type NetName = 'mlp' | 'cnn';

interface NetBench {
  spec: NetworkSpec;
  /** Samples per update (the rollout batch). */
  batch: number;
  epochs: number;
  minibatch: number;
  /** Envs acting in lock-step for the inference measurement. */
  actBatch: number;
}

const NETS: Record<NetName, NetBench> = {
  // CleanRL CartPole: 4 envs × 128 steps, here 8 × 128; 4 epochs × 4 minibatches.
  mlp: { spec: { kind: 'mlp', obsSize: 4, numActions: 2, hidden: [64, 64], activation: 'tanh' }, batch: 1024, epochs: 4, minibatch: 256, actBatch: 8 },
  // Full Nature-CNN on 84×84×4; a small batch (one minibatch, one epoch) keeps a 2-core run short.
  cnn: { spec: { kind: 'cnn', inputShape: [4, 84, 84], numActions: 6, channels: [32, 64, 64], hidden: 512 }, batch: 32, epochs: 1, minibatch: 32, actBatch: 8 },
};
const MATMUL_SIZES: [number, number, number][] = [
  [64, 64, 64],
  [256, 256, 256],
  [1024, 64, 64],
  [512, 512, 512],
];
const CARTPOLE_TARGET = 475;
const CARTPOLE_MAX_STEPS = smokeOr(300_000, 2_048);

function randomData(seed: number, n: number, scale = 1): Float32Array {
  const rng = new Rng(seed);
  return Float32Array.from({ length: n }, () => (rng.uniform() * 2 - 1) * scale);
}

/** Runs fn repeatedly (after one warm-up) for at least minSeconds or maxReps; returns seconds per call. */
async function timeIt(fn: () => Promise<void>, minSeconds: number, maxReps: number): Promise<number> {
  if (SMOKE) [minSeconds, maxReps] = [0, 1];
  await fn();
  let reps = 0;
  const t0 = performance.now();
  while (reps < maxReps && (reps === 0 || performance.now() - t0 < minSeconds * 1000)) {
    await fn();
    reps++;
  }
  return (performance.now() - t0) / 1000 / reps;
}

async function matmulGflops(b: Backend, [M, K, N]: [number, number, number]): Promise<number> {
  const A = b.tensor([M, K], randomData(1, M * K));
  const B = b.tensor([K, N], randomData(2, K * N));
  const C = b.tensor([M, N]);
  const inner = b.kind === 'webgpu' ? 8 : 1; // several dispatches per sync so the round trip does not dominate
  const sec = await timeIt(
    async () => {
      for (let i = 0; i < inner; i++) b.matmul(A, B, C);
      await b.read(C);
    },
    0.5,
    50,
  );
  return (2 * M * N * K * inner) / sec / 1e9;
}

/** A synthetic but well-formed PPO batch: identical for every backend. */
function syntheticBatch(net: NetBench): LearnerBatch {
  const n = net.batch;
  const D = networkInputSize(net.spec);
  const rng = new Rng(5);
  return {
    n,
    obs: randomData(3, n * D),
    actions: Float32Array.from({ length: n }, () => rng.int(net.spec.numActions)),
    logProbs: Float32Array.from({ length: n }, () => -Math.log(net.spec.numActions) + 0.1 * rng.normal()),
    advantages: Float32Array.from({ length: n }, () => rng.normal()),
    returns: Float32Array.from({ length: n }, () => rng.normal() * 2),
    values: Float32Array.from({ length: n }, () => rng.normal()),
  };
}

async function ppoThroughput(b: Backend, name: NetName): Promise<{ updatesPerSec: number; samplesPerSec: number; inferencePerSec: number }> {
  const cfg = NETS[name];
  const net = new ActorCritic(b, cfg.spec, 1);
  const adam = new Adam(b, net.store, { lr: 2.5e-4, beta1: 0.9, beta2: 0.999, eps: 1e-5, maxGradNorm: 0.5 });
  const learner = new PpoLearner(net, adam, cfg.batch, cfg.minibatch, cfg.epochs);
  const data = syntheticBatch(cfg);
  const rng = new Rng(1);
  const hyper = {
    epochs: cfg.epochs,
    minibatchSize: cfg.minibatch,
    epsLow: 0.2,
    epsHigh: 0.28,
    entCoef: 0.01,
    vfCoef: 0.5,
    valueClip: 0.2,
    targetKl: null,
    trainPolicy: true,
    trainValue: true,
  };
  const secPerUpdate = await timeIt(async () => void (await learner.update(data, hyper, rng)), name === 'cnn' ? 2 : 2, name === 'cnn' ? 2 : 50);
  const acting = new ActingSession(net, cfg.actBatch, 7);
  const obs = randomData(9, cfg.actBatch * net.inputSize);
  const secPerAct = await timeIt(async () => void (await acting.act(obs)), 1, 500);
  return { updatesPerSec: 1 / secPerUpdate, samplesPerSec: cfg.batch / secPerUpdate, inferencePerSec: cfg.actBatch / secPerAct };
}

async function cartpoleStepsTo475(backend: Backend): Promise<{ steps: number | null; seconds: number }> {
  const t0 = performance.now();
  let reached: number | null = null;
  await train({
    ...cartPoleTask(8, { autoreset: 'same-step' }),
    backend,
    config: { seed: 1, numSteps: 64, learningRate: 1e-3, totalTimesteps: CARTPOLE_MAX_STEPS },
    stopWhen: (m) => {
      if (m.episodesWindow >= 20 && (m.episodeReturnMean ?? 0) >= CARTPOLE_TARGET) reached = m.globalStep;
      return reached !== null;
    },
  });
  return { steps: reached, seconds: (performance.now() - t0) / 1000 };
}

const fmt = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '—' : x.toFixed(digits));
const round = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const started = performance.now();
  preferSwiftShaderWhenUnset();
  const backends: Partial<Record<BackendName, Backend>> = { cpu: new CpuBackend() };
  let adapter = 'none (requestAdapter() returned null)';
  try {
    const gpu = await WebGpuBackend.create(await createNodeGpu());
    if (gpu) {
      backends.webgpu = gpu;
      adapter = gpu.info;
    }
  } catch (err) {
    adapter = `none (${err instanceof Error ? err.message : String(err)})`;
  }
  console.log(`adapter: ${adapter}`);

  const gflops: Partial<Record<BackendName, Record<string, number>>> = {};
  const updates: Partial<Record<BackendName, Partial<Record<NetName, number>>>> = {};
  const samples: Partial<Record<BackendName, Partial<Record<NetName, number>>>> = {};
  const inference: Partial<Record<BackendName, Partial<Record<NetName, number>>>> = {};
  for (const [name, b] of Object.entries(backends) as [BackendName, Backend][]) {
    gflops[name] = {};
    for (const size of MATMUL_SIZES) {
      const g = await matmulGflops(b, size);
      gflops[name][size.join('x')] = round(g);
      console.log(`matmul ${size.join('×')} on ${name}: ${g.toFixed(2)} GFLOP/s`);
    }
    updates[name] = {};
    samples[name] = {};
    inference[name] = {};
    for (const net of ['mlp', 'cnn'] as NetName[]) {
      const r = await ppoThroughput(b, net);
      updates[name][net] = round(r.updatesPerSec);
      samples[name][net] = round(r.samplesPerSec);
      inference[name][net] = round(r.inferencePerSec);
      console.log(
        `ppo ${net} on ${name}: ${r.updatesPerSec.toFixed(3)} updates/s, ${r.samplesPerSec.toFixed(0)} samples/s, inference ${r.inferencePerSec.toFixed(0)} obs/s`,
      );
    }
  }

  const ratio = (net: NetName) => {
    const g = updates.webgpu?.[net];
    const c = updates.cpu?.[net];
    return g !== undefined && c ? round(g / c) : null;
  };
  // CartPole with the backend that trains the MLP fastest end to end: acting one rollout
  // (one batched forward + sample per env step) plus one update.
  const trainSecondsPerBatch = (name: BackendName): number => {
    const u = updates[name]?.mlp;
    const i = inference[name]?.mlp;
    return u && i ? NETS.mlp.batch / i + 1 / u : Infinity;
  };
  const fastest: BackendName = trainSecondsPerBatch('webgpu') < trainSecondsPerBatch('cpu') ? 'webgpu' : 'cpu';
  const cart = await cartpoleStepsTo475(backends[fastest] as Backend);
  console.log(`cartpole (${fastest}): ${cart.steps === null ? `not reached in ${CARTPOLE_MAX_STEPS}` : cart.steps} steps to 475, ${cart.seconds.toFixed(1)} s`);

  console.log('');
  console.log('| backend | net | updates/s | samples/s | inference obs/s |');
  console.log('|---|---|---:|---:|---:|');
  for (const name of Object.keys(backends) as BackendName[]) {
    for (const net of ['mlp', 'cnn'] as NetName[]) {
      console.log(`| ${name} | ${net} | ${fmt(updates[name]?.[net], 3)} | ${fmt(samples[name]?.[net], 0)} | ${fmt(inference[name]?.[net], 0)} |`);
    }
  }
  console.log('');
  console.log(
    `| matmul M×K×N | ${Object.keys(backends)
      .map((n) => `${n} GFLOP/s`)
      .join(' | ')} |`,
  );
  console.log(
    `|---|${Object.keys(backends)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const size of MATMUL_SIZES) {
    console.log(`| ${size.join('×')} | ${(Object.keys(backends) as BackendName[]).map((n) => fmt(gflops[n]?.[size.join('x')])).join(' | ')} |`);
  }
  console.log('');
  const result = {
    adapter,
    updates_per_s: updates,
    samples_per_s: samples,
    inference_obs_per_s: inference,
    matmul_gflops: gflops,
    webgpu_vs_cpu_mlp: ratio('mlp'),
    webgpu_vs_cpu_cnn: ratio('cnn'),
    mlp_train_seconds_per_batch: Object.fromEntries((Object.keys(backends) as BackendName[]).map((n) => [n, round(trainSecondsPerBatch(n))])),
    cartpole_steps_to_475: cart.steps,
    cartpole_backend: fastest,
    cartpole_seconds: round(cart.seconds),
    nets: Object.fromEntries(Object.entries(NETS).map(([k, v]) => [k, { ...v.spec, batch: v.batch, epochs: v.epochs, minibatch: v.minibatch }])),
    total_seconds: round((performance.now() - started) / 1000),
  };
  console.log(JSON.stringify(result));
}

await main();
