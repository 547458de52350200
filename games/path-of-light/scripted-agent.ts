import type { ScriptedPolicy } from '../../gym/agents';
import type { PathOfLightVerifierState } from '../../verifiers/path-of-light';

/**
 * Breadth-first search through the maze. If the energy left allows, the orb first takes a
 * detour to the nearest unlit cell (lighting it scores) as long as it can still reach the
 * exit afterwards with a safety margin; otherwise it heads straight for the exit.
 */
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

function bfs(n: number, open: number[], from: number): { dist: number[]; first: number[] } {
  const dist = new Array(n * n).fill(-1);
  const first = new Array(n * n).fill(-1);
  dist[from] = 0;
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    const x = i % n;
    const y = Math.floor(i / n);
    for (let d = 0; d < 4; d++) {
      if (!(open[i] & (1 << d))) continue;
      const j = (y + DY[d]) * n + x + DX[d];
      if (dist[j] >= 0) continue;
      dist[j] = dist[i] + 1;
      first[j] = i === from ? d : first[i];
      queue.push(j);
    }
  }
  return { dist, first };
}

const policy: ScriptedPolicy<PathOfLightVerifierState> = (s) => {
  const { n, open } = s;
  const here = s.player[1] * n + s.player[0];
  const exit = s.exit[1] * n + s.exit[0];
  const fromHere = bfs(n, open, here);
  const toExit = bfs(n, open, exit).dist;
  // Nearest unlit cell whose detour still leaves energy to reach the exit, plus a margin.
  let best = -1;
  for (let i = 0; i < n * n; i++) {
    if (s.lit[i] || i === exit || fromHere.dist[i] < 0) continue;
    if (fromHere.dist[i] + toExit[i] + 2 > s.energy) continue;
    if (best < 0 || fromHere.dist[i] < fromHere.dist[best]) best = i;
  }
  // Detours pay only when the cell is close: one point per cell versus the exit bonus.
  const target = best >= 0 && fromHere.dist[best] <= 2 ? best : exit;
  const d = fromHere.first[target];
  return Math.max(d, 0);
};
export default policy;
