import { drawEndOverlay, drawFadingBanner, type GameCanvas } from './canvas';
import { bindGridInput, drawGridCursor, type GridCursor } from './grid-input';
import { GRID_PUZZLE, drawMovesBar, type GridBoard } from './grid-board';

/** What the move-limited level puzzles keep in common in their state. */
export interface LevelProgress {
  score: number;
  gameOver: boolean;
  /** Virtual time the last level was solved (its banner fades from there). */
  lastSolvedAt: number;
}

/**
 * The frame loop of the level puzzles (energy, infinity-loop, laser-maze, path-of-light, shapes,
 * yarn-untangle): the canvas is drawn again only when something changed (`dirty`) or while an
 * animation runs (until `animUntil`, plus a frame's grace).
 */
export class Redraw {
  dirty = true;
  animUntil = 0;

  /** Starts `next`, the level after one solved at `now`, with its banner showing for `bannerMs`; returns it. */
  solved<S extends LevelProgress>(next: S, now: number, bannerMs: number): S {
    next.lastSolvedAt = now;
    this.animUntil = now + bannerMs;
    return next;
  }

  /** Called once the game is set up: draws on animation frames from then on. */
  start(draw: (now: number) => void): void {
    const frame = (now: number) => {
      if (this.dirty || now <= this.animUntil + 20) {
        draw(now);
        this.dirty = false;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }
}

/** The counters of a game whose levels each have a move limit (these puzzles, and emoji-sort, free-the-key, sokoban). */
export interface MoveLimits {
  score: number;
  gameOver: boolean;
  level: number;
  moves: number;
  moveLimit: number;
}

/** The state of a level puzzle whose levels have a move limit. */
export interface MoveLimitedLevel extends LevelProgress, MoveLimits {}

/** The state the 6×6 grid level puzzles share (energy, infinity-loop, laser-maze). */
export interface GridLevel extends MoveLimitedLevel {
  cols: number;
  rows: number;
  /** Canvas position of cell (0, 0) and the cell size, for agents that click cells. */
  grid: { x0: number; y0: number; cell: number };
  /** Fewest moves that solve the level as dealt. */
  par: number;
  solvedLevels: number;
}

/**
 * A level puzzle in play: its state in `window[global]` (the verifier reads it), starting at
 * level 1, and its frame loop.
 */
export class LevelPuzzle<S extends MoveLimitedLevel> extends Redraw {
  private readonly win = window as unknown as Record<string, S>;

  constructor(
    private readonly global: string,
    private readonly newLevel: (level: number, score: number) => S,
    private readonly bannerMs: number,
  ) {
    super();
    this.restart();
  }

  get state(): S {
    return this.win[this.global];
  }

  restart(): void {
    this.win[this.global] = this.newLevel(1, 0);
  }

  /**
   * Ends a move made at `now`: a `solved` level gives way to the next one, starting with
   * `nextScore`; otherwise the game is over once the moves run out. Says whether a level began.
   */
  endMove(s: S, solved: boolean, nextScore: number, now: number): boolean {
    if (solved) this.win[this.global] = this.solved(this.newLevel(s.level + 1, nextScore), now, this.bannerMs);
    else if (s.moves >= s.moveLimit) s.gameOver = true;
    this.dirty = true;
    return solved;
  }

  /** Taps on the board's cells, or the keyboard cursor (see bindGridInput), act through `act`; Enter restarts. */
  bindGrid(surface: Pick<GameCanvas, 'canvas' | 'width' | 'height'>, board: GridBoard, actKeys: string[], act: (x: number, y: number) => void): GridCursor {
    return bindGridInput({
      ...surface,
      x0: board.x0,
      y0: board.y0,
      cell: board.cell,
      cols: board.size,
      rows: board.size,
      start: { x: 2, y: 2 },
      actKeys,
      act,
      isOver: () => this.state.gameOver,
      restart: () => this.restart(),
      changed: () => (this.dirty = true),
    });
  }
}

/** How a level puzzle shows a solved level and the end of the game (see drawLevelEnd). */
export interface LevelEndLook {
  /** The banner of a level just solved, fading over `durationMs`; centred on the canvas unless `x`, `y` say otherwise. */
  banner: { text: string; color: string; font: string; durationMs: number; x?: number; y?: number };
  /** The end card while the game is over. */
  over: { shade: string; title: string };
}

/** The last layers of a level puzzle's frame: the banner of a level just solved, and the end card while the game is over. */
export function drawLevelEnd(ctx: CanvasRenderingContext2D, width: number, height: number, s: LevelProgress, now: number, look: LevelEndLook): void {
  const { banner, over } = look;
  drawFadingBanner(ctx, banner.text, {
    x: banner.x ?? width / 2,
    y: banner.y ?? height / 2,
    color: banner.color,
    font: banner.font,
    since: now - s.lastSolvedAt,
    durationMs: banner.durationMs,
  });
  if (s.gameOver) drawEndOverlay(ctx, width, height, over.shade, over.title, `Score ${s.score} · Press Enter to play again`);
}

/** How a 6×6 grid level puzzle draws its top layers (see drawGridLevelTop). */
export interface GridLevelLook extends LevelEndLook {
  /** The keyboard cursor's colour. */
  cursor: string;
  /** The moves bar's text colour (and its centred text's), and how few moves left turn red. */
  bar: { color: string; centerColor?: string; warnAt: number };
}

/** What the moves bar says: `left` at the board's left edge, `center` centred on `centerX`. */
export interface GridLevelText {
  left: string;
  center: string;
  centerX: number;
}

/**
 * The top layers of a 6×6 grid level puzzle's frame (energy, infinity-loop, laser-maze, in the
 * GRID_PUZZLE layout): the keyboard cursor, the moves bar, then the level's end (drawLevelEnd).
 */
export function drawGridLevelTop(ctx: CanvasRenderingContext2D, cursor: GridCursor, s: GridLevel, now: number, look: GridLevelLook, text: GridLevelText): void {
  const { x0, width, height } = GRID_PUZZLE;
  drawGridCursor(ctx, cursor, GRID_PUZZLE, look.cursor);
  drawMovesBar(ctx, {
    y: 24,
    color: look.bar.color,
    left: { text: text.left, x: x0 },
    center: { text: text.center, x: text.centerX, color: look.bar.centerColor },
    right: { movesLeft: s.moveLimit - s.moves, warnAt: look.bar.warnAt, x: width - x0 },
  });
  drawLevelEnd(ctx, width, height, s, now, look);
}
