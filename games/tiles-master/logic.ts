/**
 * Tiles-master rules as pure functions, shared by the game, its scripted agent and its tests.
 *
 * The board is 7×7 units. A tile covers [x, x+1) × [y, y+1) units on its layer; even layers
 * sit on whole units, odd layers on half units, so a tile overlaps up to four tiles of the
 * layer below. A tile is free (clickable) when no tile of a higher layer overlaps it.
 * Every tile contains exactly one "click point" (i + 0.75, j + 0.75) with i = floor(x),
 * j = floor(y): the point index j * 7 + i is where the preset clicks it.
 */

export const BOARD_UNITS = 7;
export const TRAY_SIZE = 7;
export const SYMBOL_COUNT = 12;

export interface Tile {
  id: number;
  x: number;
  y: number;
  layer: number;
  symbol: number;
}

export interface TilesState {
  level: number;
  tiles: Tile[];
  /** Symbols in the tray, grouped as they were inserted. */
  tray: number[];
  score: number;
  /** Symbols this level deals from (0..symbols-1). */
  symbols: number;
  layers: number;
  cleared: number;
  picks: number;
  gameOver: boolean;
  lastGain: number;
  nextId: number;
}

export interface LevelSpec {
  layers: number;
  symbols: number;
  triples: number;
}

/** More layers, symbols and tiles as levels go by. */
export function levelSpec(level: number): LevelSpec {
  return {
    layers: Math.min(5, level + 1),
    symbols: Math.min(SYMBOL_COUNT, 5 + level),
    triples: Math.min(20, 6 + 2 * level),
  };
}

export const overlaps = (a: Tile, b: Tile) => Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;

export function isFree(tiles: readonly Tile[], t: Tile): boolean {
  for (const o of tiles) if (o.layer > t.layer && overlaps(o, t)) return false;
  return true;
}

/** Index of the preset click point inside a tile. */
export const pointIndex = (t: { x: number; y: number }) => Math.floor(t.y) * BOARD_UNITS + Math.floor(t.x);

/** The topmost tile under a board point (in units), or null. */
export function topmostAt(tiles: readonly Tile[], px: number, py: number): Tile | null {
  let best: Tile | null = null;
  for (const t of tiles) {
    if (px >= t.x && px < t.x + 1 && py >= t.y && py < t.y + 1 && (!best || t.layer > best.layer)) best = t;
  }
  return best;
}

function shuffle<T>(a: T[], rand: () => number): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Deals a level: layers of tiles placed left-right symmetrically, each upper tile resting on
 * the layer below, then symbols assigned along a random order of taking tiles off the top,
 * shuffled within runs of six, so the level can always be cleared without the tray filling.
 */
export function generateLevel(level: number, rand: () => number, firstId = 1): Tile[] {
  const spec = levelSpec(level);
  const want = spec.triples * 3;
  const tiles: Tile[] = [];
  // Layer shares: the bottom layer holds the most tiles.
  const shares = Array.from({ length: spec.layers }, (_, i) => spec.layers - i + 1);
  const shareSum = shares.reduce((a, b) => a + b, 0);
  for (let layer = 0; layer < spec.layers; layer++) {
    const half = layer % 2 === 1;
    const coords: number[] = [];
    for (let v = half ? 0.5 : 0; v <= BOARD_UNITS - 1; v += 1) coords.push(v);
    // Candidate positions on the left half (with the middle column); each brings its mirror.
    const candidates: [number, number][] = [];
    for (const y of coords) for (const x of coords) if (x <= (BOARD_UNITS - 1) / 2) candidates.push([x, y]);
    shuffle(candidates, rand);
    const target = layer === spec.layers - 1 ? want - tiles.length : Math.round((want * shares[layer]) / shareSum);
    let placed = 0;
    const below = tiles.filter((t) => t.layer === layer - 1);
    for (const [x, y] of candidates) {
      if (placed >= target) break;
      const mirror = BOARD_UNITS - 1 - x;
      const group =
        mirror === x
          ? [[x, y]]
          : [
              [x, y],
              [mirror, y],
            ];
      const ok = group.every(([gx, gy]) => layer === 0 || below.some((b) => Math.abs(b.x - gx) < 1 && Math.abs(b.y - gy) < 1));
      if (!ok) continue;
      for (const [gx, gy] of group) tiles.push({ id: 0, x: gx, y: gy, layer, symbol: -1 });
      placed += group.length;
    }
  }
  // Trim to a multiple of three from the top (nothing rests on the highest tiles).
  tiles.sort((a, b) => a.layer - b.layer || a.y - b.y || a.x - b.x);
  while (tiles.length % 3 !== 0 || tiles.length > want) tiles.pop();
  tiles.forEach((t, i) => (t.id = firstId + i));
  // A random order of taking free tiles off the board…
  const left = tiles.slice();
  const order: Tile[] = [];
  while (left.length) {
    const free = left.filter((t) => isFree(left, t));
    const t = free[Math.floor(rand() * free.length)];
    order.push(t);
    left.splice(left.indexOf(t), 1);
  }
  // …gets symbols a triple at a time, mixed within runs of two triples.
  const triples = order.length / 3;
  const symbolsOfTriples: number[] = [];
  for (let i = 0; i < triples; i++) symbolsOfTriples.push(i < spec.symbols ? i : Math.floor(rand() * spec.symbols));
  shuffle(symbolsOfTriples, rand);
  for (let run = 0; run < order.length; run += 6) {
    const chunk = order.slice(run, run + 6);
    const syms: number[] = [];
    for (let k = 0; k < chunk.length / 3; k++) syms.push(...Array(3).fill(symbolsOfTriples[run / 3 + k]));
    shuffle(syms, rand);
    chunk.forEach((t, i) => (t.symbol = syms[i]));
  }
  return tiles;
}

export function newLevel(s: TilesState, level: number, rand: () => number): void {
  const spec = levelSpec(level);
  s.level = level;
  s.symbols = spec.symbols;
  s.layers = spec.layers;
  s.tiles = generateLevel(level, rand, s.nextId);
  s.nextId += s.tiles.length;
  s.tray = [];
}

export function newState(rand: () => number): TilesState {
  const s: TilesState = { level: 1, tiles: [], tray: [], score: 0, symbols: 0, layers: 0, cleared: 0, picks: 0, gameOver: false, lastGain: 0, nextId: 1 };
  newLevel(s, 1, rand);
  return s;
}

export const TRIPLE_POINTS = 30;
export const LEVEL_BONUS = 100;

export interface PickResult {
  tile: Tile;
  /** Slot the tile went to in the tray (before a triple left it). */
  slot: number;
  trayWithTile: number[];
  tripled: boolean;
  levelCleared: boolean;
  gained: number;
}

/** Where a symbol goes in the tray: right after the same symbols, else at the end. */
export function traySlot(tray: readonly number[], symbol: number): number {
  const last = tray.lastIndexOf(symbol);
  return last >= 0 ? last + 1 : tray.length;
}

/**
 * Takes tile `id` into the tray if it is free. Three equal symbols in the tray leave it and
 * score; a full tray ends the game; an empty board deals the next level.
 */
export function pickTile(s: TilesState, id: number, rand: () => number): PickResult | null {
  if (s.gameOver) return null;
  const tile = s.tiles.find((t) => t.id === id);
  if (!tile || !isFree(s.tiles, tile)) return null;
  s.tiles = s.tiles.filter((t) => t !== tile);
  s.picks++;
  const slot = traySlot(s.tray, tile.symbol);
  s.tray.splice(slot, 0, tile.symbol);
  const trayWithTile = s.tray.slice();
  let gained = 0;
  const tripled = s.tray.filter((v) => v === tile.symbol).length >= 3;
  if (tripled) {
    s.tray = s.tray.filter((v) => v !== tile.symbol);
    gained += TRIPLE_POINTS * s.level;
    s.cleared++;
  }
  let levelCleared = false;
  if (s.tray.length >= TRAY_SIZE) {
    s.gameOver = true;
  } else if (s.tiles.length === 0) {
    gained += LEVEL_BONUS * s.level;
    levelCleared = true;
    newLevel(s, s.level + 1, rand);
  }
  s.score += gained;
  s.lastGain = gained;
  return { tile, slot, trayWithTile, tripled, levelCleared, gained };
}

/** A click on a board point (units): takes the topmost tile there if it is free. */
export function clickPoint(s: TilesState, px: number, py: number, rand: () => number): PickResult | null {
  const t = topmostAt(s.tiles, px, py);
  return t ? pickTile(s, t.id, rand) : null;
}
