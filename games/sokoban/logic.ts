import { IndexHeap } from '../shared/index-heap';

/**
 * Pure rules of the box-pushing puzzle, shared by the game page and its scripted agent:
 * level generation by reverse play (start solved, pull boxes backwards), deadlock tests and
 * a push-level solver. Cells are indices y * w + x; directions are 0 up, 1 right, 2 down, 3 left.
 */

export type Dir = 0 | 1 | 2 | 3;
export const DX = [0, 1, 0, -1];
export const DY = [-1, 0, 1, 0];
export const OPPOSITE: readonly Dir[] = [2, 3, 0, 1];

export interface Level {
  w: number;
  h: number;
  /** true where there is a wall (the border is always wall). */
  walls: boolean[];
  goals: number[];
  /** Box positions; the index is the box's identity. */
  boxes: number[];
  player: number;
  /** A known solution (the reversed generation walk), in player moves. */
  solution: Dir[];
}

export function step(w: number, cell: number, d: Dir): number {
  return cell + DY[d] * w + DX[d];
}

/** Boxes, size and pull count of level n (1-based): more boxes and a larger room as levels go by. */
export function levelParams(n: number): { boxes: number; size: number; pulls: number } {
  const boxes = Math.min(6, 1 + Math.floor(n / 2));
  const size = Math.min(11, 7 + Math.floor((n - 1) / 2));
  return { boxes, size, pulls: 3 + 3 * boxes };
}

function floodCount(walls: boolean[], w: number, from: number): number {
  const seen = new Uint8Array(walls.length);
  const stack = [from];
  seen[from] = 1;
  let n = 0;
  while (stack.length) {
    const c = stack.pop()!;
    n++;
    for (let d = 0; d < 4; d++) {
      const nc = step(w, c, d as Dir);
      if (!walls[nc] && !seen[nc]) {
        seen[nc] = 1;
        stack.push(nc);
      }
    }
  }
  return n;
}

function buildRoom(w: number, h: number, rand: () => number): boolean[] {
  const walls: boolean[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) walls.push(x === 0 || y === 0 || x === w - 1 || y === h - 1);
  let floor = (w - 2) * (h - 2);
  const target = Math.floor(floor * 0.2);
  for (let tries = 0, placed = 0; placed < target && tries < target * 8; tries++) {
    const c = (1 + Math.floor(rand() * (h - 2))) * w + 1 + Math.floor(rand() * (w - 2));
    if (walls[c]) continue;
    walls[c] = true;
    const start = walls.findIndex((v) => !v);
    if (floodCount(walls, w, start) !== floor - 1) {
      walls[c] = false;
      continue;
    }
    floor--;
    placed++;
  }
  return walls;
}

/** Shortest walk of the player from `from` to `to` around walls and boxes, or null. */
export function walkPath(walls: readonly boolean[], w: number, boxes: ReadonlySet<number>, from: number, to: number): Dir[] | null {
  if (from === to) return [];
  const prev = new Int32Array(walls.length).fill(-1);
  const how = new Int8Array(walls.length);
  prev[from] = from;
  const queue = [from];
  for (let qi = 0; qi < queue.length; qi++) {
    const c = queue[qi];
    for (let d = 0; d < 4; d++) {
      const nc = step(w, c, d as Dir);
      if (walls[nc] || boxes.has(nc) || prev[nc] !== -1) continue;
      prev[nc] = c;
      how[nc] = d;
      if (nc === to) {
        const path: Dir[] = [];
        for (let x = to; x !== from; x = prev[x]) path.push(how[x] as Dir);
        return path.reverse();
      }
      queue.push(nc);
    }
  }
  return null;
}

/**
 * Levels are drawn, observed and addressed in one fixed frame of FRAME × FRAME cells (the
 * largest level fills it; a smaller one sits centred in it by whole cells), so a cell of the
 * frame is the same place on screen, in the verifier's vector and in the push preset whatever
 * the level's size.
 */
export const FRAME = 11;

/** The frame cell of a w × h level's cell (0, 0). */
export function frameOffset(w: number, h: number): [number, number] {
  return [Math.floor((FRAME - w) / 2), Math.floor((FRAME - h) / 2)];
}

/**
 * The player's moves that push the box on `box` one cell towards `d`: the shortest walk to the
 * cell behind it, then the push. Null when the push is not possible (no box there, the cell
 * beyond is a wall or a box, or the cell behind cannot be reached without pushing).
 */
export function pushMoves(walls: readonly boolean[], w: number, boxes: readonly number[], player: number, box: number, d: Dir): Dir[] | null {
  const occupied = new Set(boxes);
  if (!occupied.has(box)) return null;
  const beyond = step(w, box, d);
  const stand = step(w, box, OPPOSITE[d]);
  if (walls[beyond] || occupied.has(beyond) || walls[stand] || occupied.has(stand)) return null;
  const walk = walkPath(walls, w, occupied, player, stand);
  return walk ? [...walk, d] : null;
}

/** One push of a plan of player moves: the box's cell and direction, the position before it, and the moves it took (walk and push). */
export interface PlannedPush {
  box: number;
  d: Dir;
  boxes: number[];
  player: number;
  moves: number;
}

/** The pushes a plan of player moves (a solver's, say) makes, in order. */
export function pushesOfPlan(w: number, boxes: readonly number[], player: number, plan: readonly Dir[]): PlannedPush[] {
  const out: PlannedPush[] = [];
  const bx = boxes.slice();
  let before = { boxes: bx.slice(), player };
  let at = player;
  let since = 0;
  for (const d of plan) {
    const to = step(w, at, d);
    since++;
    const bi = bx.indexOf(to);
    if (bi >= 0) {
      out.push({ box: to, d, ...before, moves: since });
      bx[bi] = step(w, to, d);
      before = { boxes: bx.slice(), player: to };
      since = 0;
    }
    at = to;
  }
  return out;
}

/** Interior cells of the frame a push can start on (its border is always wall). */
export const PUSH_CELLS = FRAME - 2;

/** The push preset's index of "push the box on frame cell (fx, fy) towards d". */
export function pushAction(fx: number, fy: number, d: Dir): number {
  return ((fy - 1) * PUSH_CELLS + (fx - 1)) * 4 + d;
}

function reversePlay(walls: boolean[], w: number, goals: number[], pulls: number, rand: () => number): { boxes: number[]; player: number; walk: Dir[] } | null {
  const boxes = goals.slice();
  const occupied = new Set(boxes);
  const free = walls.map((wall, i) => (!wall && !occupied.has(i) ? i : -1)).filter((i) => i >= 0);
  if (!free.length) return null;
  let player = free[Math.floor(rand() * free.length)];
  const walk: Dir[] = [];
  let events = 0;
  for (let attempt = 0; events < pulls && attempt < pulls * 30; attempt++) {
    const b = Math.floor(rand() * boxes.length);
    const d = Math.floor(rand() * 4) as Dir;
    let stand = step(w, boxes[b], d);
    let to = step(w, stand, d);
    if (walls[stand] || occupied.has(stand) || walls[to] || occupied.has(to)) continue;
    const route = walkPath(walls, w, occupied, player, stand);
    if (!route) continue;
    walk.push(...route);
    const k = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < k && !walls[to] && !occupied.has(to); i++) {
      occupied.delete(boxes[b]);
      boxes[b] = stand;
      occupied.add(stand);
      walk.push(d);
      stand = to;
      to = step(w, to, d);
    }
    player = stand;
    events++;
  }
  return { boxes, player, walk };
}

/**
 * A solvable level: boxes start on the goals and are pulled away by a random walk. Several
 * candidates are made and the one the solver needs the most moves for is kept; its solution
 * is the shorter of the solver's and the reversed generation walk.
 */
export function generateLevel(n: number, rand: () => number): Level {
  const { boxes: nBoxes, size, pulls } = levelParams(n);
  let best: { level: Level; quality: number } | null = null;
  let candidates = 0;
  for (let attempt = 0; attempt < 30 && candidates < 6; attempt++) {
    const walls = buildRoom(size, size, rand);
    const floor = walls.map((wall, i) => (wall ? -1 : i)).filter((i) => i >= 0);
    // Goals: distinct random floor cells.
    for (let i = floor.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [floor[i], floor[j]] = [floor[j], floor[i]];
    }
    const goals = floor.slice(0, nBoxes);
    const r = reversePlay(walls, size, goals, pulls, rand);
    if (!r) continue;
    const goalSet = new Set(goals);
    const off = r.boxes.filter((b) => !goalSet.has(b)).length;
    // Prefer every box off its goal; accept fewer only if nothing better turns up.
    if (off < nBoxes && attempt < 24) continue;
    candidates++;
    let solution = r.walk
      .slice()
      .reverse()
      .map((d) => OPPOSITE[d]);
    const solved = solve(walls, size, goals, r.boxes, r.player, 5000).moves;
    if (solved && solved.length < solution.length) solution = solved;
    const quality = off * 1000 + (solved ? solved.length : solution.length);
    if (!best || quality > best.quality) best = { quality, level: { w: size, h: size, walls, goals, boxes: r.boxes, player: r.player, solution } };
  }
  return best!.level;
}

/** Moves allowed before the level costs a life: the generator's solution plus slack. */
export function moveLimit(level: Level): number {
  return level.solution.length + 10 + 5 * level.boxes.length;
}

function isWallOrOut(walls: readonly boolean[], c: number): boolean {
  return c < 0 || c >= walls.length || walls[c];
}

/**
 * True when the box at `cell` can provably never reach a goal: it sits off-goal in a corner,
 * or it is part of a 2×2 block of walls and boxes holding an off-goal box.
 */
export function isDeadlock(walls: readonly boolean[], w: number, goals: ReadonlySet<number>, boxes: ReadonlySet<number>, cell: number): boolean {
  if (!goals.has(cell)) {
    const up = isWallOrOut(walls, cell - w),
      down = isWallOrOut(walls, cell + w);
    const left = isWallOrOut(walls, cell - 1),
      right = isWallOrOut(walls, cell + 1);
    if ((up || down) && (left || right)) return true;
  }
  for (const [ox, oy] of [
    [0, 0],
    [-1, 0],
    [0, -1],
    [-1, -1],
  ]) {
    const tl = cell + oy * w + ox;
    const square = [tl, tl + 1, tl + w, tl + w + 1];
    if (!square.every((c) => isWallOrOut(walls, c) || boxes.has(c))) continue;
    if (square.some((c) => boxes.has(c) && !goals.has(c))) return true;
  }
  return false;
}

/** Cells from which a lone box can still be pushed to some goal. */
export function liveCells(walls: readonly boolean[], w: number, goals: readonly number[]): Uint8Array {
  const live = new Uint8Array(walls.length);
  const queue = [...goals];
  for (const g of goals) live[g] = 1;
  for (let qi = 0; qi < queue.length; qi++) {
    const t = queue[qi];
    for (let d = 0; d < 4; d++) {
      // A box at c = t - d pushed by a player standing at c - d reaches t.
      const c = step(w, t, OPPOSITE[d]);
      const p = step(w, c, OPPOSITE[d]);
      if (isWallOrOut(walls, c) || isWallOrOut(walls, p) || live[c]) continue;
      live[c] = 1;
      queue.push(c);
    }
  }
  return live;
}

/**
 * Best-first search over push states (boxes + the player's reachable area), with dead cells
 * and 2×2 freezes pruned. Returns a full move list, or null with `exhausted` when the search
 * space ran out (the position is unsolvable) rather than the node budget.
 */
export function solve(
  walls: readonly boolean[],
  w: number,
  goalList: readonly number[],
  boxList: readonly number[],
  player: number,
  maxNodes = 60000,
): { moves: Dir[] | null; exhausted: boolean } {
  const goals = new Set(goalList);
  const live = liveCells(walls, w, goalList);
  const size = walls.length;
  // Distance of each cell to its nearest goal by pushes (ignoring other boxes): a heuristic.
  const dist = new Int32Array(size).fill(1 << 20);
  {
    const queue = [...goalList];
    for (const g of goalList) dist[g] = 0;
    for (let qi = 0; qi < queue.length; qi++) {
      const t = queue[qi];
      for (let d = 0; d < 4; d++) {
        const c = step(w, t, OPPOSITE[d]);
        const p = step(w, c, OPPOSITE[d]);
        if (isWallOrOut(walls, c) || isWallOrOut(walls, p) || dist[c] <= dist[t] + 1) continue;
        dist[c] = dist[t] + 1;
        queue.push(c);
      }
    }
  }
  interface Node {
    boxes: number[];
    player: number;
    parent: number;
    box: number;
    dir: Dir;
    g: number;
    f: number;
  }
  const reach = (boxes: ReadonlySet<number>, from: number): { seen: Uint8Array; min: number } => {
    const seen = new Uint8Array(size);
    const stack = [from];
    seen[from] = 1;
    let min = from;
    while (stack.length) {
      const c = stack.pop()!;
      if (c < min) min = c;
      for (let d = 0; d < 4; d++) {
        const nc = step(w, c, d as Dir);
        if (!walls[nc] && !boxes.has(nc) && !seen[nc]) {
          seen[nc] = 1;
          stack.push(nc);
        }
      }
    }
    return { seen, min };
  };
  const hOf = (boxes: number[]) => boxes.reduce((a, b) => a + dist[b], 0);
  const nodes: Node[] = [];
  const seenKeys = new Set<string>();
  // Node indices ordered by f, then insertion.
  const heap = new IndexHeap((a, b) => nodes[a].f < nodes[b].f || (nodes[a].f === nodes[b].f && a < b));
  const startBoxes = boxList.slice();
  const start = reach(new Set(startBoxes), player);
  nodes.push({ boxes: startBoxes, player, parent: -1, box: -1, dir: 0, g: 0, f: 2 * hOf(startBoxes) });
  seenKeys.add(
    startBoxes
      .slice()
      .sort((a, b) => a - b)
      .join(',') +
      '|' +
      start.min,
  );
  heap.push(0);
  let goalNode = -1;
  while (heap.size && nodes.length < maxNodes) {
    const i = heap.pop();
    const n = nodes[i];
    if (n.boxes.every((b) => goals.has(b))) {
      goalNode = i;
      break;
    }
    const boxSet = new Set(n.boxes);
    const { seen } = reach(boxSet, n.player);
    for (let bi = 0; bi < n.boxes.length; bi++) {
      const b = n.boxes[bi];
      for (let d = 0 as Dir; d < 4; d = (d + 1) as Dir) {
        const stand = step(w, b, OPPOSITE[d]);
        const to = step(w, b, d);
        if (!seen[stand] || walls[to] || boxSet.has(to) || !live[to]) continue;
        const boxes = n.boxes.slice();
        boxes[bi] = to;
        const nextSet = new Set(boxes);
        if (isDeadlock(walls, w, goals, nextSet, to)) continue;
        const key =
          boxes
            .slice()
            .sort((a, b2) => a - b2)
            .join(',') +
          '|' +
          reach(nextSet, b).min;
        if (seenKeys.has(key)) continue;
        seenKeys.add(key);
        nodes.push({ boxes, player: b, parent: i, box: bi, dir: d, g: n.g + 1, f: n.g + 1 + 2 * hOf(boxes) });
        heap.push(nodes.length - 1);
      }
    }
  }
  if (goalNode < 0) return { moves: null, exhausted: heap.size === 0 };
  const chain: Node[] = [];
  for (let i = goalNode; i > 0; i = nodes[i].parent) chain.push(nodes[i]);
  chain.reverse();
  const moves: Dir[] = [];
  let at = player;
  let boxes = new Set(startBoxes);
  let boxArr = startBoxes.slice();
  for (const c of chain) {
    const b = boxArr[c.box];
    const stand = step(w, b, OPPOSITE[c.dir]);
    moves.push(...walkPath(walls, w, boxes, at, stand)!);
    moves.push(c.dir);
    boxArr = c.boxes;
    boxes = new Set(boxArr);
    at = b;
  }
  return { moves, exhausted: false };
}
