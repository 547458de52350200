/**
 * Pure rules of the sliding-block puzzle, shared by the game page and its scripted agent.
 * The board is 6×6; block 0 is the key, two cells long, lying in row 2, and leaves through the
 * exit on the right edge of that row. Every block slides along its own axis, one cell per move.
 * Generation: random layouts, a breadth-first search of each layout's whole state space, and a
 * start state picked at the wanted distance from the nearest solved state, so every puzzle is
 * solvable and its optimal move count is known.
 */

export const N = 6;
export const EXIT_ROW = 2;
export const KEY_LEN = 2;
/** The key's column once it reaches the exit. */
export const KEY_GOAL = N - KEY_LEN;

export interface Block {
  horiz: boolean;
  len: number;
  /** The row of a horizontal block, the column of a vertical one. */
  line: number;
}

export interface Puzzle {
  blocks: Block[];
  /** Column of each horizontal block, row of each vertical one. */
  pos: number[];
  /** Fewest one-cell slides that free the key. */
  optimal: number;
}

export type Move = [block: number, delta: -1 | 1];

export function blockCells(b: Block, p: number): number[] {
  const cells: number[] = [];
  for (let i = 0; i < b.len; i++) cells.push(b.horiz ? b.line * N + p + i : (p + i) * N + b.line);
  return cells;
}

/** Cell → block index + 1 (0 = empty). */
export function occupancy(blocks: readonly Block[], pos: readonly number[]): Int8Array {
  const occ = new Int8Array(N * N);
  blocks.forEach((b, i) => {
    for (const c of blockCells(b, pos[i])) occ[c] = i + 1;
  });
  return occ;
}

export function canSlide(blocks: readonly Block[], pos: readonly number[], occ: Int8Array, bi: number, delta: -1 | 1): boolean {
  const b = blocks[bi];
  const p = pos[bi] + delta;
  if (p < 0 || p + b.len > N) return false;
  const edge = delta < 0 ? p : p + b.len - 1;
  const cell = b.horiz ? b.line * N + edge : edge * N + b.line;
  return occ[cell] === 0;
}

export function legalMoves(blocks: readonly Block[], pos: readonly number[]): Move[] {
  const occ = occupancy(blocks, pos);
  const moves: Move[] = [];
  for (let i = 0; i < blocks.length; i++) {
    if (canSlide(blocks, pos, occ, i, -1)) moves.push([i, -1]);
    if (canSlide(blocks, pos, occ, i, 1)) moves.push([i, 1]);
  }
  return moves;
}

export const isSolved = (pos: readonly number[]) => pos[0] === KEY_GOAL;
const keyOf = (pos: readonly number[]) => String.fromCharCode(...pos);

/** Shortest list of one-cell slides that frees the key, or null (none within `maxStates`). */
export function solve(blocks: readonly Block[], start: readonly number[], maxStates = 200000): Move[] | null {
  if (isSolved(start)) return [];
  const seen = new Map<string, { prev: string; move: Move } | null>([[keyOf(start), null]]);
  const queue: number[][] = [start.slice()];
  for (let qi = 0; qi < queue.length && seen.size < maxStates; qi++) {
    const pos = queue[qi];
    const k = keyOf(pos);
    for (const m of legalMoves(blocks, pos)) {
      const next = pos.slice();
      next[m[0]] += m[1];
      const nk = keyOf(next);
      if (seen.has(nk)) continue;
      seen.set(nk, { prev: k, move: m });
      if (isSolved(next)) {
        const path: Move[] = [];
        for (let at = nk; ; ) {
          const e = seen.get(at);
          if (!e) break;
          path.push(e.move);
          at = e.prev;
        }
        return path.reverse();
      }
      queue.push(next);
    }
  }
  return null;
}

function randomLayout(count: number, rand: () => number): { blocks: Block[]; pos: number[] } {
  const blocks: Block[] = [{ horiz: true, len: KEY_LEN, line: EXIT_ROW }];
  const pos = [Math.floor(rand() * (KEY_GOAL - 1))];
  const occ = occupancy(blocks, pos);
  for (let tries = 0; blocks.length < count && tries < 300; tries++) {
    const horiz = rand() < 0.5;
    const len = rand() < 0.3 ? 3 : 2;
    const line = Math.floor(rand() * N);
    const p = Math.floor(rand() * (N - len + 1));
    // A horizontal block in the key's row could never let it out.
    if (horiz && line === EXIT_ROW) continue;
    const b = { horiz, len, line };
    const cells = blockCells(b, p);
    if (cells.some((c) => occ[c] !== 0)) continue;
    blocks.push(b);
    pos.push(p);
    for (const c of cells) occ[c] = blocks.length;
  }
  return { blocks, pos };
}

/** Fewest slides (one-cell moves) wanted for level n. */
export function targetMoves(n: number): number {
  return Math.min(40, 6 + 3 * (n - 1));
}

export function blockCount(n: number): number {
  return Math.min(13, 7 + Math.floor(n / 2));
}

const SPACE_CAP = 12000;

/**
 * Every state reachable from `pos` (null when there are more than SPACE_CAP: such loose
 * layouts make easy puzzles anyway). States are packed rows of positions in one typed array
 * and keyed by a base-8 number, since this runs in the page while a level loads.
 */
function exploreSpace(blocks: readonly Block[], pos: readonly number[]): { states: Int8Array; edgeStart: Int32Array; edges: number[]; count: number } | null {
  const nb = blocks.length;
  const states = new Int8Array(SPACE_CAP * nb);
  const codes = new Float64Array(SPACE_CAP);
  const pow: number[] = [];
  for (let i = 0, v = 1; i < nb; i++, v *= 8) pow.push(v);
  let code0 = 0;
  for (let i = 0; i < nb; i++) code0 += pos[i] * pow[i];
  states.set(pos, 0);
  codes[0] = code0;
  const index = new Map<number, number>([[code0, 0]]);
  let count = 1;
  const edgeStart = new Int32Array(SPACE_CAP + 1);
  const edges: number[] = [];
  const occ = new Int8Array(N * N);
  for (let i = 0; i < count; i++) {
    edgeStart[i] = edges.length;
    const base = i * nb;
    occ.fill(0);
    for (let b = 0; b < nb; b++) {
      const bl = blocks[b];
      const p = states[base + b];
      for (let k = 0; k < bl.len; k++) occ[bl.horiz ? bl.line * N + p + k : (p + k) * N + bl.line] = 1;
    }
    for (let b = 0; b < nb; b++) {
      const bl = blocks[b];
      const p = states[base + b];
      for (let delta = -1; delta <= 1; delta += 2) {
        const np = p + delta;
        if (np < 0 || np + bl.len > N) continue;
        const edge = delta < 0 ? np : np + bl.len - 1;
        if (occ[bl.horiz ? bl.line * N + edge : edge * N + bl.line]) continue;
        const code = codes[i] + delta * pow[b];
        let j = index.get(code);
        if (j === undefined) {
          if (count >= SPACE_CAP) return null;
          j = count++;
          index.set(code, j);
          codes[j] = code;
          states.copyWithin(j * nb, base, base + nb);
          states[j * nb + b] = np;
        }
        edges.push(j);
      }
    }
  }
  edgeStart[count] = edges.length;
  return { states, edgeStart, edges, count };
}

/**
 * Explores the state space of random layouts and returns a start state whose optimal solution
 * is `targetMoves(n)` slides long, or the longest found within the attempts.
 */
export function generatePuzzle(n: number, rand: () => number): Puzzle {
  const target = targetMoves(n);
  let best: Puzzle | null = null;
  for (let attempt = 0; attempt < 60 && !(best && best.optimal >= target); attempt++) {
    const { blocks, pos } = randomLayout(blockCount(n), rand);
    const space = exploreSpace(blocks, pos);
    if (!space) continue;
    const { states, edgeStart, edges, count } = space;
    const nb = blocks.length;
    // Distance of every state to the nearest solved one (slides are reversible).
    const dist = new Int32Array(count).fill(-1);
    const queue: number[] = [];
    for (let i = 0; i < count; i++) {
      if (states[i * nb] === KEY_GOAL) {
        dist[i] = 0;
        queue.push(i);
      }
    }
    if (!queue.length) continue;
    let maxD = 0;
    for (let qi = 0; qi < queue.length; qi++) {
      const i = queue[qi];
      for (let e = edgeStart[i]; e < edgeStart[i + 1]; e++) {
        const j = edges[e];
        if (dist[j] >= 0) continue;
        dist[j] = dist[i] + 1;
        if (dist[j] > maxD) maxD = dist[j];
        queue.push(j);
      }
    }
    const d = Math.min(target, maxD);
    if (d < 2 || (best && d <= best.optimal)) continue;
    const picks: number[] = [];
    dist.forEach((v, i) => v === d && picks.push(i));
    const chosen = picks[Math.floor(rand() * picks.length)];
    best = { blocks, pos: Array.from(states.subarray(chosen * nb, chosen * nb + nb)), optimal: d };
  }
  if (!best) {
    // Practically unreachable; a fixed two-slide puzzle keeps the game going.
    best = {
      blocks: [
        { horiz: true, len: 2, line: EXIT_ROW },
        { horiz: false, len: 2, line: 4 },
      ],
      pos: [2, 2],
      optimal: 4,
    };
  }
  return orderBlocks(best);
}

/** Numbers the blocks after the key in reading order of where they start. */
function orderBlocks(p: Puzzle): Puzzle {
  const rest = p.blocks.slice(1).map((b, i) => ({ b, p: p.pos[i + 1], first: blockCells(b, p.pos[i + 1])[0] }));
  rest.sort((a, c) => a.first - c.first);
  return { blocks: [p.blocks[0], ...rest.map((r) => r.b)], pos: [p.pos[0], ...rest.map((r) => r.p)], optimal: p.optimal };
}

/** Slides allowed per puzzle before the game ends. */
export function moveLimit(optimal: number): number {
  return 2 * optimal + 10;
}

export function puzzlePoints(optimal: number): number {
  return 10 * optimal;
}
