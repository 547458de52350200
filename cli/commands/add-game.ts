import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { addExternalGame, type AddGameInput } from '../../gym/external/add-game';
import { smokeCheck } from '../../gym/external/smoke-check';
import { stringOption, UsageError, type Command } from '../command';

/** add-game.json: the same settings as the flags; paths are relative to the file. */
const ConfigFile = z.strictObject({
  source: z.string().min(1),
  manifest: z.string().min(1),
  verifier: z.string().min(1),
  scriptedAgent: z.string().optional(),
  force: z.boolean().optional(),
});

function fromConfig(file: string, force: boolean): AddGameInput {
  if (!existsSync(file)) throw new UsageError(`config file ${file} does not exist`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`config file ${file} is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) throw new UsageError(`config file ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const c = parsed.data;
  const dir = path.dirname(path.resolve(file));
  const rel = (p: string) => path.resolve(dir, p);
  return {
    source: /^https?:\/\//i.test(c.source) ? c.source : rel(c.source),
    manifest: rel(c.manifest),
    verifier: rel(c.verifier),
    scriptedAgent: c.scriptedAgent ? rel(c.scriptedAgent) : undefined,
    force: force || c.force === true,
  };
}

export const addGameCommand: Command = {
  name: 'add-game',
  summary: 'Register a third-party game (a folder or a URL) with its manifest and verifier',
  usage:
    'arcade-gym add-game <folder-or-url> --manifest manifest.json --verifier verifier.ts|verifier.js [--scripted-agent agent.ts] [--force] [--no-build] [--no-check]\n' +
    '       arcade-gym add-game --config add-game.json [--force] [--no-build] [--no-check]',
  positionals: true,
  options: {
    manifest: { type: 'string' },
    verifier: { type: 'string' },
    'scripted-agent': { type: 'string' },
    config: { type: 'string' },
    force: { type: 'boolean' },
    'no-build': { type: 'boolean' },
    'no-check': { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const force = values.force === true;
    const config = stringOption(values, 'config');
    let input: AddGameInput;
    if (config) {
      if (positionals.length || values.manifest || values.verifier) throw new UsageError('give either --config or <folder-or-url> --manifest --verifier, not both');
      input = fromConfig(config, force);
    } else {
      if (positionals.length !== 1) throw new UsageError(`give one game folder or URL (got ${positionals.length})\n\nUsage: ${addGameCommand.usage}`);
      const manifest = stringOption(values, 'manifest');
      const verifier = stringOption(values, 'verifier');
      if (!manifest || !verifier) throw new UsageError(`--manifest and --verifier are required\n\nUsage: ${addGameCommand.usage}`);
      input = { source: positionals[0], manifest, verifier, scriptedAgent: stringOption(values, 'scripted-agent'), force };
    }

    const added = await addExternalGame(input);
    const what = added.source.source.kind === 'folder' ? `${Object.keys(added.source.files).length} files` : added.source.source.url;
    console.log(`registered ${added.id} in ${added.dir} (${what}; build checksum ${added.buildChecksum.slice(0, 12)}…; ${added.featureNames.length} features)`);
    if (values['no-build']) {
      console.log('not built (--no-build): run `npm run build:games` before using it');
      return;
    }
    // Build the catalog so env, eval and the site see the game; keep ARCADE_GAMES' selection plus this game.
    if (process.env.ARCADE_GAMES && !process.env.ARCADE_GAMES.split(',').map((s) => s.trim()).includes(added.id)) {
      process.env.ARCADE_GAMES += `,${added.id}`;
    }
    const { buildGames } = await import('../../scripts/build-games');
    const catalog = await buildGames();
    console.log(`catalog rebuilt: ${catalog.games.length} games`);
    if (values['no-check']) return;
    const check = await smokeCheck(added.id);
    if (check.gameErrors.length) console.log(`the game threw while it ran:\n  ${check.gameErrors.slice(0, 5).join('\n  ')}`);
    if (!check.state) {
      throw new UsageError(`${added.id} is registered, but after ${check.steps} steps its verifier's read() still returns null: check the globals or elements it reads`);
    }
    const shown = JSON.stringify(check.state);
    console.log(`check: ${check.steps} steps in the gym; the verifier reads ${shown.length > 300 ? shown.slice(0, 300) + '…' : shown}`);
    console.log(`try it: npx arcade-gym eval --game ${added.id} --agent random`);
  },
};
