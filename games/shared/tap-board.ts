import { bindTapsAndRestart, createCanvas2d, drawPlayAgainCard, paintSprite, type Rect } from './canvas';

/**
 * The 5×5 boards of the tap-a-cell games (gem-11, merge-double): 80 px cells under an 80 px
 * header on a 400×480 canvas. A move changes the state at once; its animation is drawn
 * afterwards, and a tap during it acts on the settled board and replaces it.
 */
export const TAP_BOARD = { width: 400, height: 480, header: 80, cell: 80 } as const;

const { width: WIDTH, height: HEIGHT, header: HEADER, cell: CELL } = TAP_BOARD;

/** The Play-again button of the end card. */
const BUTTON: Rect = { x: WIDTH / 2 - 80, y: HEADER + 250, w: 160, h: 44 };

export class TapBoard<A extends { start: number }> {
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  private readonly pixelRatio: number;
  /** The animation of the last move, until it ends. */
  anim: A | null = null;
  /** Something changed: draw on the next frame. */
  dirty = true;

  constructor(
    title: string,
    private readonly rows: number,
    private readonly cols: number,
    /** The end card's colours: the shade over the board, the Play-again button and its text. */
    private readonly endCard: { shade: string; buttonFill: string; buttonText: string },
  ) {
    ({ canvas: this.canvas, ctx: this.ctx, pixelRatio: this.pixelRatio } = createCanvas2d(title, WIDTH, HEIGHT));
  }

  /** Starts the animation of a move (or none) and asks for a frame. */
  play(anim: A | null): void {
    this.anim = anim;
    this.dirty = true;
  }

  /** A tap on a cell goes to `tapCell`; once the game is over, the Play-again button or Enter restarts it. */
  bindInput(isOver: () => boolean, restart: () => void, tapCell: (r: number, c: number) => void): void {
    bindTapsAndRestart({
      canvas: this.canvas,
      width: WIDTH,
      height: HEIGHT,
      button: BUTTON,
      isOver,
      restart,
      tap: (x, y) => {
        const c = Math.floor(x / CELL);
        const r = Math.floor((y - HEADER) / CELL);
        if (r >= 0 && r < this.rows && c >= 0 && c < this.cols) tapCell(r, c);
      },
    });
  }

  /** An off-screen canvas of `width` × `height` at the device pixel ratio, painted once by `paint`. */
  sprite(width: number, height: number, paint: (g: CanvasRenderingContext2D) => void): HTMLCanvasElement {
    return paintSprite(this.pixelRatio, width, height, paint);
  }

  /** The end card over the board, with the Play-again button, once the game is over and the last move's animation has ended. */
  drawEndCard(gameOver: boolean, title: string, line: string): void {
    if (!gameOver || this.anim) return;
    drawPlayAgainCard(this.ctx, {
      width: WIDTH,
      area: { x: 0, y: HEADER, w: WIDTH, h: HEIGHT - HEADER },
      titleY: HEADER + 150,
      lineY: HEADER + 195,
      button: BUTTON,
      ...this.endCard,
      title,
      line,
    });
  }

  /**
   * Draws on animation frames while an animation runs (it ends `duration(anim)` ms after its
   * start) and once after anything changed; otherwise the canvas keeps its last frame.
   */
  start(duration: (a: A) => number, draw: (now: number) => void): void {
    const frame = (now: number) => {
      if (this.anim && now - this.anim.start >= duration(this.anim)) {
        this.anim = null;
        this.dirty = true;
      }
      if (this.dirty || this.anim) {
        this.dirty = false;
        draw(now);
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }
}
