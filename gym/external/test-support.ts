/**
 * Whether a game is part of this test run's build. ARCADE_GAMES=a,b builds only those games
 * (see scripts/build-games.ts); tests of a game left out of the build skip rather than fail.
 */
export function isBuilt(id: string): boolean {
  // CI builds every game: these tests must never be skipped there.
  if (process.env.CI) return true;
  const only = process.env.ARCADE_GAMES;
  return !only || only.split(',').map((s) => s.trim()).includes(id);
}
