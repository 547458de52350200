import type { ScriptedPolicy } from '../../gym/agents';
import type { GuiAction } from '../../gym/schema';
import type { YarnUntangleVerifierState } from '../../verifiers/yarn-untangle';
import { PEGS } from './pegs';
import { strandsCross, type P } from './strands';

/**
 * Plans first, then drags. For each new graph the agent searches, in its head, for a
 * crossing-free layout on the pegs (repeated greedy relocation of tangled balls with random
 * kicks and restarts, seeded from the graph itself so the plan is a pure function of the
 * level). It then drags one ball per step to its planned peg, choosing a ball whose peg is
 * free (or first clearing a taken one). If no plan is found it falls back to online greedy
 * drags that remove the most crossings.
 */

/** Crossings that involve at least one strand of ball v. */
function crossingsAt(nodes: P[], edges: [number, number][], incident: number[]): number {
  let n = 0;
  const mine = new Set(incident);
  for (const e of incident) {
    const [a, b] = edges[e];
    for (let f = 0; f < edges.length; f++) {
      if (f === e || (mine.has(f) && f < e)) continue;
      if (strandsCross(nodes, a, b, edges[f][0], edges[f][1])) n++;
    }
  }
  return n;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function totalCrossings(nodes: P[], edges: [number, number][]): number {
  let t = 0;
  for (let i = 0; i < edges.length; i++)
    for (let j = i + 1; j < edges.length; j++) if (strandsCross(nodes, edges[i][0], edges[i][1], edges[j][0], edges[j][1])) t++;
  return t;
}

/** A crossing-free layout on the pegs, or null; depends only on the graph. */
export function planLayout(n: number, edges: [number, number][]): P[] | null {
  const lattice = PEGS;
  if (lattice.length < n) return null;
  const sig = JSON.stringify(edges) + n;
  let h = 2166136261;
  for (let i = 0; i < sig.length; i++) h = Math.imul(h ^ sig.charCodeAt(i), 16777619);
  const rnd = mulberry32(h);
  const incident = Array.from({ length: n }, (_, v) => edges.map((e, i) => (e[0] === v || e[1] === v ? i : -1)).filter((i) => i >= 0));
  for (let restart = 0; restart < 30; restart++) {
    const used = new Set<number>();
    const nodes: P[] = [];
    for (let v = 0; v < n; v++) {
      let k: number;
      do k = Math.floor(rnd() * lattice.length);
      while (used.has(k));
      used.add(k);
      nodes.push(lattice[k]);
    }
    let t = totalCrossings(nodes, edges);
    for (let pass = 0; pass < 60 && t > 0; pass++) {
      let improved = false;
      for (let v = 0; v < n; v++) {
        const here = crossingsAt(nodes, edges, incident[v]);
        if (!here) continue;
        const orig = nodes[v];
        let best = orig;
        let bestC = here;
        for (const p of lattice) {
          if (nodes.some((q, i) => i !== v && q[0] === p[0] && q[1] === p[1])) continue;
          nodes[v] = p;
          const c = crossingsAt(nodes, edges, incident[v]);
          if (c < bestC) {
            bestC = c;
            best = p;
          }
        }
        nodes[v] = best;
        if (bestC < here) {
          t -= here - bestC;
          improved = true;
        }
      }
      if (!improved) {
        const v = Math.floor(rnd() * n);
        const p = lattice[Math.floor(rnd() * lattice.length)];
        if (!nodes.some((q) => q[0] === p[0] && q[1] === p[1])) nodes[v] = p;
        t = totalCrossings(nodes, edges);
      }
    }
    if (t === 0) return nodes;
  }
  return null;
}

// Plans are pure functions of the graph, so caching them changes nothing but speed.
const plans = new Map<string, P[] | null>();

const same = (a: P, b: P) => a[0] === b[0] && a[1] === b[1];
/** Whether a ball sits on peg p. */
const taken = (nodes: readonly P[], p: P) => nodes.some((q) => same(p, q));

function followPlan(s: YarnUntangleVerifierState): GuiAction | null {
  const { nodes, edges } = s;
  const key = `${nodes.length}|${JSON.stringify(edges)}`;
  if (!plans.has(key)) {
    if (plans.size > 64) plans.clear();
    plans.set(key, planLayout(nodes.length, edges));
  }
  const plan = plans.get(key);
  if (!plan) return null;
  const todo = nodes.map((_, v) => v).filter((v) => !same(nodes[v], plan[v]));
  if (!todo.length) return null;
  const v = todo.find((u) => !taken(nodes, plan[u]));
  if (v !== undefined) return { type: 'drag', from: [nodes[v][0], nodes[v][1]], to: [plan[v][0], plan[v][1]] };
  // Every planned peg is taken: move a ball in the way to a peg free of balls and of plans.
  const u = todo[0];
  const blocker = nodes.findIndex((q, i) => i !== u && same(plan[u], q));
  const spare = PEGS.find((p) => !taken(nodes, p) && !plan.some((q) => same(p, q)));
  return spare ? { type: 'drag', from: [nodes[blocker][0], nodes[blocker][1]], to: [spare[0], spare[1]] } : null;
}

const policy: ScriptedPolicy<YarnUntangleVerifierState> = (s, ctx) => {
  const { nodes, edges } = s;
  if (s.crossings === 0 || !nodes.length) return 0;
  const planned = followPlan(s);
  if (planned) return planned;
  const incident = nodes.map((_, v) => edges.map((e, i) => (e[0] === v || e[1] === v ? i : -1)).filter((i) => i >= 0));
  let best: { v: number; to: P; total: number; dist: number } | null = null;
  const sideways: { v: number; to: P }[] = [];
  for (let v = 0; v < nodes.length; v++) {
    if (!incident[v].some((e) => s.crossed[e])) continue;
    const here = crossingsAt(nodes, edges, incident[v]);
    const original = nodes[v];
    for (const to of PEGS) {
      if (taken(nodes, to)) continue;
      nodes[v] = to;
      const total = s.crossings - here + crossingsAt(nodes, edges, incident[v]);
      nodes[v] = original;
      const dist = Math.hypot(to[0] - original[0], to[1] - original[1]);
      if (total < s.crossings && (!best || total < best.total || (total === best.total && dist < best.dist))) best = { v, to, total, dist };
      if (total === s.crossings && dist > 0) sideways.push({ v, to });
    }
  }
  let move = best ? { v: best.v, to: best.to } : sideways.length ? sideways[Math.floor(ctx.random() * sideways.length)] : null;
  if (!move) {
    const v = Math.floor(ctx.random() * nodes.length);
    const free = PEGS.filter((p) => !taken(nodes, p));
    move = { v, to: free[Math.floor(ctx.random() * free.length)] };
  }
  const action: GuiAction = { type: 'drag', from: [nodes[move.v][0], nodes[move.v][1]], to: move.to };
  return action;
};
export default policy;
