/**
 * Whether a game is part of this test run's build. ARCADE_GAMES=a,b builds only those games
 * (see scripts/build-games.ts); tests of a game left out of the build skip rather than fail.
 */
export function isBuilt(id: string): boolean {
  const only = process.env.ARCADE_GAMES;
  return !only || only.split(',').map((s) => s.trim()).includes(id);
}
