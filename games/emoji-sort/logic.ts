import { IndexHeap } from '../shared/index-heap';

/**
 * Pure rules of the sorting puzzle, shared by the game page and its scripted agent.
 * Eight tubes hold up to four items each, listed bottom to top. A move pours the top run of
 * one item kind from a tube onto another whose top item is the same kind, or into an empty
 * tube, as many as fit. A level is solved when every tube is empty or full of one kind.
 */

export const TUBES = 8;
export const CAP = 4;
export type Tubes = number[][];
export type Move = [from: number, to: number];

/** Kinds of items on level n: 4, 5, then 6 (with 8 tubes that leaves 4, 3, then 2 empty). */
export function levelKinds(n: number): number {
  return Math.min(6, 3 + n);
}

export function topRun(t: readonly number[]): { kind: number; count: number } {
  if (!t.length) return { kind: -1, count: 0 };
  const kind = t[t.length - 1];
  let count = 1;
  while (count < t.length && t[t.length - 1 - count] === kind) count++;
  return { kind, count };
}

export function canMove(tubes: Tubes, from: number, to: number): boolean {
  if (from === to || from < 0 || to < 0 || from >= tubes.length || to >= tubes.length) return false;
  const a = tubes[from];
  const b = tubes[to];
  if (!a.length || b.length >= CAP) return false;
  return !b.length || b[b.length - 1] === a[a.length - 1];
}

/** Pours and returns the new tubes and how many items moved. */
export function applyMove(tubes: Tubes, from: number, to: number): { tubes: Tubes; moved: number } {
  const next = tubes.map((t) => t.slice());
  const { count } = topRun(next[from]);
  const moved = Math.min(count, CAP - next[to].length);
  for (let i = 0; i < moved; i++) next[to].push(next[from].pop()!);
  return { tubes: next, moved };
}

export const isFullSet = (t: readonly number[]) => t.length === CAP && t.every((v) => v === t[0]);
export const isSolved = (tubes: Tubes) => tubes.every((t) => t.length === 0 || isFullSet(t));

export function legalMoves(tubes: Tubes): Move[] {
  const out: Move[] = [];
  for (let a = 0; a < tubes.length; a++) for (let b = 0; b < tubes.length; b++) if (canMove(tubes, a, b)) out.push([a, b]);
  return out;
}

/**
 * Lower bound on the moves left: every boundary between two kinds inside a tube needs a move
 * to undo, and each kind resting at the bottom of k tubes needs k - 1 more to gather; one move
 * lowers this by at most one.
 */
export function movesLowerBound(tubes: Tubes): number {
  let h = 0;
  const bottoms = new Map<number, number>();
  for (const t of tubes) {
    if (!t.length) continue;
    for (let i = 1; i < t.length; i++) if (t[i] !== t[i - 1]) h++;
    bottoms.set(t[0], (bottoms.get(t[0]) ?? 0) + 1);
  }
  for (const k of bottoms.values()) h += k - 1;
  return h;
}

/** Shortest solution by A* with `movesLowerBound`, then `solveDeep` if the budget runs out. */
export function solve(start: Tubes, maxNodes = 30000): Move[] | null {
  return solveShortest(start, maxNodes) ?? solveDeep(start, maxNodes);
}

const keyOf = (t: Tubes) =>
  t
    .map((x) => x.join(''))
    .sort()
    .join('|');

export function solveShortest(start: Tubes, maxNodes = 30000): Move[] | null {
  interface Node {
    t: Tubes;
    g: number;
    f: number;
    parent: number;
    move: Move | null;
  }
  const nodes: Node[] = [{ t: start, g: 0, f: movesLowerBound(start), parent: -1, move: null }];
  const best = new Map<string, number>([[keyOf(start), 0]]);
  const heap = new IndexHeap(
    (a, b) => nodes[a].f < nodes[b].f || (nodes[a].f === nodes[b].f && (nodes[a].g > nodes[b].g || (nodes[a].g === nodes[b].g && a < b))),
  );
  heap.push(0);
  while (heap.size && nodes.length < maxNodes) {
    const i = heap.pop();
    const n = nodes[i];
    if (isSolved(n.t)) {
      const path: Move[] = [];
      for (let j = i; nodes[j].move; j = nodes[j].parent) path.push(nodes[j].move!);
      return path.reverse();
    }
    const firstEmpty = n.t.findIndex((x) => x.length === 0);
    for (let a = 0; a < n.t.length; a++) {
      if (!n.t[a].length) continue;
      const whole = topRun(n.t[a]).count === n.t[a].length;
      for (let b = 0; b < n.t.length; b++) {
        if (!canMove(n.t, a, b)) continue;
        if (!n.t[b].length && (b !== firstEmpty || whole)) continue;
        const t = applyMove(n.t, a, b).tubes;
        const key = keyOf(t);
        const g = n.g + 1;
        if ((best.get(key) ?? Infinity) <= g) continue;
        best.set(key, g);
        nodes.push({ t, g, f: g + movesLowerBound(t), parent: i, move: [a, b] });
        heap.push(nodes.length - 1);
      }
    }
  }
  return null;
}

/**
 * Depth-first search with a visited set; useful moves first (onto a matching item, or those
 * that finish a tube), then into the first empty tube. Pointless moves (a tube of one kind into
 * an empty tube) are skipped. Returns null when the node budget runs out first.
 */
export function solveDeep(start: Tubes, maxNodes = 30000): Move[] | null {
  const seen = new Set<string>();
  const path: Move[] = [];
  let nodes = 0;
  const dfs = (t: Tubes): boolean => {
    if (isSolved(t)) return true;
    const key = keyOf(t);
    if (seen.has(key) || ++nodes > maxNodes) return false;
    seen.add(key);
    const onto: { m: Move; rank: number }[] = [];
    let intoEmpty: Move[] = [];
    const firstEmpty = t.findIndex((x) => x.length === 0);
    for (let a = 0; a < t.length; a++) {
      if (!t[a].length) continue;
      const run = topRun(t[a]);
      for (let b = 0; b < t.length; b++) {
        if (!canMove(t, a, b)) continue;
        if (!t[b].length) {
          // Moving a whole tube of one kind into an empty one changes nothing.
          if (b === firstEmpty && run.count < t[a].length) intoEmpty.push([a, b]);
          continue;
        }
        const fits = Math.min(run.count, CAP - t[b].length);
        const finishes = t[b].length + fits === CAP && topRun(t[b]).count === t[b].length;
        // Prefer moves that empty the source's run entirely and those that finish a tube.
        onto.push({ m: [a, b], rank: (finishes ? 0 : 2) + (fits === run.count ? 0 : 1) });
      }
    }
    onto.sort((x, y) => x.rank - y.rank);
    // Into the empty tube: deeper runs first (they free more).
    intoEmpty = intoEmpty.sort((x, y) => topRun(t[y[0]]).count - topRun(t[x[0]]).count);
    for (const m of [...onto.map((o) => o.m), ...intoEmpty]) {
      path.push(m);
      if (dfs(applyMove(t, m[0], m[1]).tubes)) return true;
      path.pop();
    }
    return false;
  };
  return dfs(start) ? path.slice() : null;
}

/** A shuffled level that the solver has solved (its solution comes with it). */
export function generateLevel(n: number, rand: () => number): { tubes: Tubes; solution: Move[] } {
  const kinds = levelKinds(n);
  for (let attempt = 0; ; attempt++) {
    const items: number[] = [];
    for (let k = 0; k < kinds; k++) for (let i = 0; i < CAP; i++) items.push(k);
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    const tubes: Tubes = [];
    for (let t = 0; t < TUBES; t++) tubes.push(t < kinds ? items.slice(t * CAP, t * CAP + CAP) : []);
    // No tube starts already sorted, and none starts with more than two of a kind on top.
    if (tubes.some(isFullSet) || tubes.some((t) => t.length && topRun(t).count > 2)) continue;
    const solution = solve(tubes, 20000);
    if (solution || attempt > 50) return { tubes, solution: solution ?? [] };
  }
}

/** Moves allowed per level: the solver's solution plus slack. */
export function moveLimit(solutionLength: number): number {
  return solutionLength + 12;
}
