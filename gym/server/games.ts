import { getGame, loadCatalog } from '../catalog';
import type { CatalogEntry } from '../catalog-schema';
import { spaceJson } from './encode';

/** A game as GET /v1/games lists it: what it is, and its action and observation spaces. */
export function gameJson(g: CatalogEntry) {
  const m = g.manifest;
  const observationSpaces: Record<string, unknown> = {
    state: { type: 'Json', description: `verifier state of ${m.id}` },
    vector: spaceJson({ type: 'Box', shape: [g.featureNames.length], dtype: 'float32', low: -Infinity, high: Infinity, names: g.featureNames }),
    screenshot: { type: 'Image', format: 'png' },
  };
  // Pixels are read from the game's canvas; DOM games have none (use screenshots).
  if (m.renderer !== 'dom') observationSpaces.pixels = { type: 'Box', shape: [84, 84, 1], dtype: 'uint8', low: 0, high: 255 };
  return {
    id: m.id,
    title: m.title,
    version: m.version,
    description: m.description,
    controls: m.controls,
    renderer: m.renderer,
    canvas: { width: m.canvas.width, height: m.canvas.height },
    stepBudget: m.stepBudget,
    msPerStep: m.msPerStep,
    actionSpace: { type: 'Discrete', n: m.preset.length, names: m.preset.map((p) => p.name) },
    observationSpaces,
    humanReference: { score: m.humanReference.score, status: m.humanReference.status, stepBudget: m.humanReference.stepBudget },
    verifierChecksum: g.verifierChecksum,
  };
}

export function listGames() {
  return { games: loadCatalog().games.map(gameJson) };
}

export function oneGame(id: string) {
  return gameJson(getGame(id));
}
