import type { ScriptedPolicy } from '../../gym/agents';
import type { LaserMazeVerifierState } from '../../verifiers/laser-maze';

/**
 * Depth-first search along the beam: whenever the beam enters a socket it has not decided
 * yet, try each mirror setting (cheapest number of clicks first) and follow the beam on.
 * Keeps the cheapest assignment that lights every target, then clicks the first socket that
 * differs from it. Each click lowers the cost of the best plan, so the agent converges.
 */
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];
const SLASH = [1, 0, 3, 2];
const BACKSLASH = [3, 2, 1, 0];

export function planMirrors(
  s: Pick<LaserMazeVerifierState, 'cols' | 'rows' | 'cells' | 'mirrors' | 'emitter' | 'targets'>,
  maxNodes = 50_000,
): Map<number, number> | null {
  const { cols, rows, cells } = s;
  const targets = new Set(s.targets);
  let best: Map<number, number> | null = null;
  let bestCost = Infinity;
  let nodes = 0;
  const assign = new Map<number, number>();
  const go = (x: number, y: number, d: number, hits: Set<number>, cost: number, steps: number): void => {
    if (cost >= bestCost || ++nodes > maxNodes) return;
    for (; steps < 200; steps++) {
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) break;
      const j = ny * cols + nx;
      const kind = cells[j];
      if (kind === 1 || kind === 4) break;
      x = nx;
      y = ny;
      if (kind === 3 && !hits.has(j)) {
        hits = new Set(hits);
        hits.add(j);
      }
      if (kind === 2) {
        if (!assign.has(j)) {
          const cur = s.mirrors[j];
          for (let k = 0; k < 3; k++) {
            const m = (cur + k) % 3;
            assign.set(j, m);
            const nd = m === 0 ? d : m === 1 ? SLASH[d] : BACKSLASH[d];
            go(x, y, nd, hits, cost + k, steps + 1);
            assign.delete(j);
          }
          return;
        }
        const m = assign.get(j)!;
        if (m) d = m === 1 ? SLASH[d] : BACKSLASH[d];
      }
    }
    if (hits.size === targets.size && cost < bestCost) {
      bestCost = cost;
      best = new Map(assign);
    }
  };
  go(s.emitter.x, s.emitter.y, s.emitter.dir, new Set(), 0, 0);
  return best;
}

const policy: ScriptedPolicy<LaserMazeVerifierState> = (s) => {
  const plan = planMirrors(s);
  if (plan) {
    const order = [...plan.keys()].sort((a, b) => a - b);
    for (const i of order) if (plan.get(i) !== s.mirrors[i]) return i;
  }
  // No plan (should not happen): click the first socket the beam touches.
  const touched = s.beamCells.find((i) => s.cells[i] === 2);
  if (touched !== undefined) return touched;
  const any = s.cells.indexOf(2);
  return Math.max(any, 0);
};
export default policy;
