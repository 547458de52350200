import { loadCatalog } from '../../gym/catalog';
import type { Command } from '../command';
import { formatTable } from '../format-table';

export const gamesCommand: Command = {
  name: 'games',
  summary: 'List the games with their action and observation spaces',
  usage: 'arcade-gym games [--json]',
  options: { json: { type: 'boolean' } },
  async run({ values }) {
    const catalog = loadCatalog();
    if (values.json) {
      console.log(
        JSON.stringify(
          catalog.games.map((g) => ({
            id: g.manifest.id,
            title: g.manifest.title,
            version: g.manifest.version,
            renderer: g.manifest.renderer,
            suites: g.manifest.suites,
            stepBudget: g.manifest.stepBudget,
            msPerStep: g.manifest.msPerStep,
            actionSpace: { type: 'Discrete', n: g.manifest.preset.length, names: g.manifest.preset.map((p) => p.name) },
            observationSpaces: {
              state: { type: 'Json' },
              vector: { type: 'Box', shape: [g.featureNames.length], dtype: 'float32', names: g.featureNames },
              pixels: { type: 'Box', shape: [84, 84, 1], dtype: 'uint8', note: 'size and channels configurable' },
              screenshot: { type: 'Image', format: 'png|jpeg', size: [g.manifest.canvas.width, g.manifest.canvas.height] },
            },
            humanReference: g.manifest.humanReference,
            verifierChecksum: g.verifierChecksum,
          })),
          null,
          2,
        ),
      );
      return;
    }
    console.log(
      formatTable(
        ['id', 'renderer', 'actions', 'vector', 'pixels', 'budget', 'ms/step', 'human', 'suites'],
        catalog.games.map((g) => [
          g.manifest.id,
          g.manifest.renderer,
          `Discrete(${g.manifest.preset.length})`,
          `Box(${g.featureNames.length})`,
          g.manifest.renderer === 'dom' ? 'screenshot' : 'Box(84,84,1)',
          g.manifest.stepBudget,
          g.manifest.msPerStep,
          g.manifest.humanReference.score,
          g.manifest.suites.join(','),
        ]),
      ),
    );
    console.log(
      `\n${catalog.games.length} games. Observations: state (verifier JSON), vector, pixels (in-page readback), screenshot. Actions: a preset index or a GUI action (click, drag, key, type, scroll, wait).`,
    );
  },
};
