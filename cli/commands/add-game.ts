import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { addExternalGame, settleAddGame, type AddGameInput, smokeCheck } from '../../gym/external';
import { checkGame } from '../../gym/eval';
import { formatCheckReport } from '../../gym/core';
import { VERIFIER_STATE_SHAPE } from '../../gym/schema';
import { type Command, stringOption, switchFlags, UsageError, valueFlags } from '../command';

/** add-game.json: the same settings as the flags; paths are relative to the file. */
const ConfigFile = z.strictObject({
  source: z.string().min(1),
  origin: z.string().optional(),
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
    origin: c.origin,
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
    'arcade-gym add-game <folder-or-url> --manifest manifest.json --verifier verifier.ts|verifier.js [--scripted-agent agent.ts] [--origin URL] [--force] [--no-build] [--no-check]\n' +
    '       arcade-gym add-game --config add-game.json [--force] [--no-build] [--no-check]',
  positionals: true,
  options: { ...valueFlags('manifest', 'verifier', 'scripted-agent', 'origin', 'config'), ...switchFlags('force', 'no-build', 'no-check') },
  async run({ values, positionals }) {
    const force = values.force === true;
    const config = stringOption(values, 'config');
    let input: AddGameInput;
    if (config) {
      if (positionals.length || values.manifest || values.verifier)
        throw new UsageError('give either --config or <folder-or-url> --manifest --verifier, not both');
      input = fromConfig(config, force);
    } else {
      if (positionals.length !== 1) throw new UsageError(`give one game folder or URL (got ${positionals.length})\n\nUsage: ${addGameCommand.usage}`);
      const manifest = stringOption(values, 'manifest');
      const verifier = stringOption(values, 'verifier');
      if (!manifest || !verifier) throw new UsageError(`--manifest and --verifier are required\n\nUsage: ${addGameCommand.usage}`);
      const scriptedAgent = stringOption(values, 'scripted-agent');
      input = { source: positionals[0], manifest, verifier, scriptedAgent, origin: stringOption(values, 'origin'), force };
    }

    const added = await addExternalGame(input);
    const what = added.source.source.kind === 'folder' ? `${Object.keys(added.source.files).length} files` : added.source.source.url;
    console.log(`registered ${added.id} in ${added.dir} (${what}; build checksum ${added.buildChecksum.slice(0, 12)}…; ${added.featureNames.length} features)`);
    if (values['no-build']) {
      await settleAddGame(added, true);
      console.log('not built (--no-build): run `npm run build:games` before using it');
      return;
    }
    // Build the catalog so env, eval and the site see the game; keep ARCADE_GAMES' selection plus this game.
    if (
      process.env.ARCADE_GAMES &&
      !process.env.ARCADE_GAMES.split(',')
        .map((s) => s.trim())
        .includes(added.id)
    ) {
      process.env.ARCADE_GAMES += `,${added.id}`;
    }
    // Loaded here: esbuild is needed by this command only.
    const { buildGames } = await import('../../gym/build');
    let check;
    try {
      const catalog = await buildGames();
      console.log(`catalog rebuilt: ${catalog.games.length} games`);
      check = values['no-check'] ? null : await smokeCheck(added.id);
    } catch (e) {
      await settleAddGame(added, true);
      throw e;
    }
    if (check?.problems.length) {
      // Its episodes would never end or its records would not parse: take the registration back.
      await settleAddGame(added, false);
      await buildGames();
      throw new UsageError(
        `add-game refused ${added.id}: its verifier's state is invalid, so it was not registered.\n  - ${check.problems.join('\n  - ')}\n` +
          `read(win) must return ${VERIFIER_STATE_SHAPE} (or null before the game has started): rewards read \`score\`, termination reads \`gameOver\`.`,
      );
    }
    // The contract every game meets (gym/core/check-game.ts): spaces, determinism, reset isolation, state, pixels.
    const contract = check?.state ? await checkGame(added.id) : null;
    if (contract && !contract.ok) {
      await settleAddGame(added, false);
      await buildGames();
      throw new UsageError(`add-game refused ${added.id}: it does not meet the gym's game contract, so it was not registered.\n${formatCheckReport(contract)}`);
    }
    await settleAddGame(added, true);
    if (!check) return;
    if (contract)
      console.log(
        `contract: ${contract.results.filter((r) => r.status === 'pass').length} of ${contract.results.length} checks passed${contract.results.some((r) => r.status === 'warn') ? `\n${formatCheckReport(contract)}` : ''}`,
      );
    if (check.gameErrors.length) console.log(`the game threw while it ran:\n  ${check.gameErrors.slice(0, 5).join('\n  ')}`);
    for (const w of check.warnings) console.log(`warning: ${w}`);
    if (!check.state) {
      throw new UsageError(
        `${added.id} is registered, but after ${check.steps} steps its verifier's read() still returns null: check the globals or elements it reads, ` +
          'or give the manifest `startActions` if the game waits for a key or a click to start',
      );
    }
    const shown = JSON.stringify(check.state);
    console.log(`check: ${check.steps} steps in the gym; the verifier reads ${shown.length > 300 ? `${shown.slice(0, 300)}…` : shown}`);
    console.log(`try it: npx arcade-gym eval --game ${added.id} --agent random`);
  },
};
