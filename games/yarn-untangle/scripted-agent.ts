import type { ScriptedPolicy } from '../../gym/agents';
import type { GuiAction } from '../../gym/schema';
import type { YarnUntangleVerifierState } from '../../verifiers/yarn-untangle';
import { strandsCross, type P } from './strands';

/**
 * Plans first, then drags. For each new graph the agent searches, in its head, for a
 * crossing-free layout on a 45-pixel lattice (repeated greedy relocation of tangled balls
 * with random kicks and restarts, seeded from the graph itself so the plan is a pure
 * function of the level). It then drags one ball per step to its planned spot, choosing a
 * ball whose spot is clear of other balls (or first clearing a blocked spot). If no plan is
 * found it falls back to online greedy drags that remove the most crossings.
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

/** A crossing-free layout on a lattice, or null; depends only on the graph and the area. */
export function planLayout(n: number, edges: [number, number][], area: YarnUntangleVerifierState['area'], spacing = 45): P[] | null {
  const lattice: P[] = [];
  for (let x = area.minX; x <= area.maxX; x += spacing) for (let y = area.minY; y <= area.maxY; y += spacing) lattice.push([x, y]);
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

const near = (a: P, b: P, r: number) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 < r * r;

function followPlan(s: YarnUntangleVerifierState): GuiAction | null {
  const { nodes, edges, area } = s;
  const key = `${nodes.length}|${JSON.stringify(edges)}|${JSON.stringify(area)}`;
  if (!plans.has(key)) {
    if (plans.size > 64) plans.clear();
    plans.set(key, planLayout(nodes.length, edges, area));
  }
  const plan = plans.get(key);
  if (!plan) return null;
  const todo = nodes.map((_, v) => v).filter((v) => nodes[v][0] !== plan[v][0] || nodes[v][1] !== plan[v][1]);
  if (!todo.length) return null;
  const clear = (p: P, v: number) => !nodes.some((q, i) => i !== v && near(p, q, 24));
  const v = todo.find((u) => clear(plan[u], u));
  if (v !== undefined) return { type: 'drag', from: [nodes[v][0], nodes[v][1]], to: [plan[v][0], plan[v][1]] };
  // Every planned spot is blocked: move a blocking ball out of the way to a spot clear of
  // all balls and of every planned spot.
  const u = todo[0];
  const blocker = nodes.findIndex((q, i) => i !== u && near(plan[u], q, 24));
  for (let x = area.minX; x <= area.maxX; x += 15) {
    for (let y = area.minY; y <= area.maxY; y += 15) {
      const p: P = [x, y];
      if (clear(p, blocker) && !plan.some((q) => near(p, q, 24))) return { type: 'drag', from: [nodes[blocker][0], nodes[blocker][1]], to: p };
    }
  }
  return null;
}

const policy: ScriptedPolicy<YarnUntangleVerifierState> = (s, ctx) => {
  const { nodes, edges, area } = s;
  if (s.crossings === 0 || !nodes.length) return 0;
  const planned = followPlan(s);
  if (planned) return planned;
  const incident = nodes.map((_, v) => edges.map((e, i) => (e[0] === v || e[1] === v ? i : -1)).filter((i) => i >= 0));
  const lattice: P[] = [];
  for (let x = area.minX; x <= area.maxX; x += 30) for (let y = area.minY; y <= area.maxY; y += 30) lattice.push([x, y]);
  const crowded = (p: P, v: number) => nodes.some((q, i) => i !== v && (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 < 26 * 26);
  let best: { v: number; to: P; total: number; dist: number } | null = null;
  const sideways: { v: number; to: P }[] = [];
  for (let v = 0; v < nodes.length; v++) {
    if (!incident[v].some((e) => s.crossed[e])) continue;
    const here = crossingsAt(nodes, edges, incident[v]);
    const nb = incident[v].map((e) => nodes[edges[e][0] === v ? edges[e][1] : edges[e][0]]);
    const mid: P = [Math.round(nb.reduce((t, p) => t + p[0], 0) / nb.length), Math.round(nb.reduce((t, p) => t + p[1], 0) / nb.length)];
    const original = nodes[v];
    for (const to of [mid, ...lattice]) {
      if (to[0] < area.minX || to[0] > area.maxX || to[1] < area.minY || to[1] > area.maxY || crowded(to, v)) continue;
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
    move = { v, to: lattice[Math.floor(ctx.random() * lattice.length)] };
  }
  const action: GuiAction = { type: 'drag', from: [nodes[move.v][0], nodes[move.v][1]], to: move.to };
  return action;
};
export default policy;
