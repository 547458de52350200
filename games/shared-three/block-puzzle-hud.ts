import { roundRect, type HudPanel } from './stage';

/** The colours of a block puzzle's HUD. */
export interface BlockPuzzleHudColors {
  /** "r,g,b" of the bar's shade, which fades out downwards. */
  shade: string;
  text: string;
  combo: string;
  /** The game-over card: fill, border and the dimmer last line. */
  card: string;
  border: string;
  dim: string;
}

/**
 * The score bar and the game-over card of the 3D block puzzles: score on the left, level on
 * the right, the combo in the middle while above ×1; the card while the game is over.
 */
export function drawBlockPuzzleHud(
  top: HudPanel,
  over: HudPanel,
  s: { score: number; level: number; combo: number; gameOver: boolean },
  colors: BlockPuzzleHudColors,
  overTitle: string,
): void {
  top.draw(`${s.score}|${s.level}|${s.combo}`, (ctx, tw, th) => {
    const g = ctx.createLinearGradient(0, 0, 0, th);
    g.addColorStop(0, `rgba(${colors.shade},0.85)`);
    g.addColorStop(1, `rgba(${colors.shade},0)`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, tw, th);
    ctx.textBaseline = 'middle';
    ctx.fillStyle = colors.text;
    ctx.font = 'bold 20px sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(`${s.score}`, 14, 20);
    ctx.font = '13px sans-serif';
    ctx.textAlign = 'right';
    ctx.fillText(`Level ${s.level}`, tw - 14, 20);
    if (s.combo > 1) {
      ctx.textAlign = 'center';
      ctx.fillStyle = colors.combo;
      ctx.font = 'bold 16px sans-serif';
      ctx.fillText(`Combo ×${s.combo}`, tw / 2, 20);
    }
  });
  if (!s.gameOver) {
    over.visible = false;
    return;
  }
  over.draw(`over|${s.score}`, (ctx, ow, oh) => {
    ctx.fillStyle = colors.card;
    roundRect(ctx, 0, 0, ow, oh, 14);
    ctx.fill();
    ctx.strokeStyle = colors.border;
    ctx.lineWidth = 2;
    roundRect(ctx, 1, 1, ow - 2, oh - 2, 13);
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = colors.text;
    ctx.font = 'bold 24px sans-serif';
    ctx.fillText(overTitle, ow / 2, 34);
    ctx.font = '17px sans-serif';
    ctx.fillText(`Score ${s.score}`, ow / 2, 68);
    ctx.font = '13px sans-serif';
    ctx.fillStyle = colors.dim;
    ctx.fillText('Press Enter to play again', ow / 2, 102);
  });
}
