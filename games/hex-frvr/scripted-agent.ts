import type { ScriptedPolicy } from '../../gym/agents';
import type { HexVerifierState } from '../../verifiers/hex-frvr';
import { CELLS, DIRS, bestDrop, cellIndex, dropAction, fitsAnywhere, key, linePoints, type HexBoard } from './logic';

/**
 * Greedy hex placer: over every offered piece and anchor where it fits, score the drop by its
 * points plus a board-shape heuristic (few isolated cells, few ragged edges, the other pieces
 * still fit), then drag the piece there.
 */

const PLACE = 9;
const NEIGHBOURS = Object.values(DIRS);

function shapeScore(b: HexBoard): number {
  let holes = 0;
  let edges = 0;
  CELLS.forEach(([q, r], i) => {
    let filledAround = 0;
    for (const [dq, dr] of NEIGHBOURS) {
      const j = cellIndex.get(key(q + dq, r + dr));
      const f = j === undefined || b[j] !== 0;
      if (f) filledAround++;
      if (j !== undefined && j > i && (b[j] !== 0) !== (b[i] !== 0)) edges++;
      if (j === undefined && b[i] === 0) edges += 0.5;
    }
    if (b[i] === 0 && filledAround === 6) holes++;
  });
  return -5 * holes - 0.4 * edges;
}

const policy: ScriptedPolicy<HexVerifierState> = (s) => {
  if (s.gameOver) return PLACE;
  const best = bestDrop(s.board, s.pieces, (res, i) => {
    const lines = res.lines.length;
    let value = res.cells + linePoints(lines, lines ? s.combo + 1 : 1) + shapeScore(res.board);
    for (const [j, o] of s.pieces.entries()) if (o && j !== i && !fitsAnywhere(res.board, o)) value -= 60;
    return value;
  });
  if (!best) return PLACE;
  // A piece that fits with its anchor at (q, r) is anchored there when dragged onto that cell.
  return dropAction(best.piece, cellIndex.get(key(best.q, best.r))!);
};
export default policy;
