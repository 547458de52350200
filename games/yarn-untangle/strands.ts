/**
 * The strand geometry of Yarn Untangle, shared by the game and its scripted agent: whether two
 * strands cross is the game's rule, so the agent plans with the very same test.
 */

export type P = [number, number];
const orient = (a: P, b: P, c: P) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
const onSegment = (a: P, b: P, p: P) =>
  Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);

/** Do strands a-b and c-d (ball indices) cross? Strands sharing a ball cross only if they overlap. */
export function strandsCross(nodes: P[], a: number, b: number, c: number, d: number): boolean {
  const shared = a === c || a === d ? a : b === c || b === d ? b : -1;
  if (shared >= 0) {
    // One strand running back along the other from the shared ball.
    const s = nodes[shared];
    const u = nodes[shared === a ? b : a];
    const v = nodes[shared === c ? d : c];
    if (orient(s, u, v) !== 0) return false;
    return (u[0] - s[0]) * (v[0] - s[0]) + (u[1] - s[1]) * (v[1] - s[1]) > 0;
  }
  const [pa, pb, pc, pd] = [nodes[a], nodes[b], nodes[c], nodes[d]];
  const o1 = orient(pa, pb, pc);
  const o2 = orient(pa, pb, pd);
  const o3 = orient(pc, pd, pa);
  const o4 = orient(pc, pd, pb);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  // Touching counts: a ball lying on another strand.
  return (
    (o1 === 0 && onSegment(pa, pb, pc)) || (o2 === 0 && onSegment(pa, pb, pd)) || (o3 === 0 && onSegment(pc, pd, pa)) || (o4 === 0 && onSegment(pc, pd, pb))
  );
}
