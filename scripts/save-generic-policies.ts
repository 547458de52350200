/**
 * Commits the generic agent's trained policies as the ppo-generic baseline: copies each game's
 * `policy.agckpt` from a `bench:suite-learn` output folder to games/<id>/ppo-generic.agckpt with
 * ppo-generic.json beside it (how it was trained: gym/agents/generic-policy.ts), so a fresh site
 * seeds a learned row through the same tickets and replay as random and scripted.
 *
 *   LEARN_PRESETS=0 LEARN_OUT=runs/suite npm run bench:suite-learn
 *   tsx scripts/save-generic-policies.ts --from runs/suite --backend webgpu [--commit SHA] [--games snake,g2048]
 *
 * Only a run of the generic agent is taken: a policy over the preset's keys, the generic config's
 * network and settings; anything else is refused with the folder and what differs.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GENERIC_POLICY_FILE, GENERIC_POLICY_INFO_FILE, GenericPolicyInfo } from '../gym/agents';
import { getGame } from '../gym/catalog';
import { externalGameDir } from '../gym/external';
import { GAMES_DIR, ROOT } from '../gym/paths';
import { decodeCheckpoint } from '../gym/ppo';
import { GENERIC_AGENT } from '../gym/training-settings';
import { learningCurveFrom } from '../cli/train-submit';

const RUN_SUFFIX = '-generic';
/** Points of each learning curve kept: one per update of a 100k-step run. */
const CURVE_POINTS = 200;

function fail(message: string): never {
  console.error(`save-generic-policies: ${message}`);
  process.exit(2);
}

/** Env steps the run really took: its last update's global step (whole rollouts, so under the budget). */
function trainedSteps(metricsFile: string): number {
  const lines = readFileSync(metricsFile, 'utf8').trim().split('\n');
  for (const line of lines.reverse()) {
    const m = JSON.parse(line) as { globalStep?: unknown };
    if (typeof m.globalStep === 'number') return m.globalStep;
  }
  fail(`${metricsFile} has no update with a globalStep`);
}

/** The generic config's settings a policy must have been trained with; the first that differs, or null. */
function notGeneric(config: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(GENERIC_AGENT.ppo)) {
    const got = config[key];
    const want = typeof value === 'object' && value !== null ? { ...(got as object), ...value } : value;
    if (JSON.stringify(got) !== JSON.stringify(want)) return `ppo.${key} is ${JSON.stringify(got)}, the generic agent's is ${JSON.stringify(value)}`;
  }
  return null;
}

function main(): void {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, backend: { type: 'string' }, commit: { type: 'string' }, games: { type: 'string' } },
    strict: true,
  });
  if (!values.from) fail('--from <bench:suite-learn LEARN_OUT folder> is required');
  if (values.backend !== 'webgpu' && values.backend !== 'cpu') fail('--backend webgpu|cpu is required: the backend the runs trained on');
  const from = path.resolve(values.from);
  if (!existsSync(from)) fail(`${from} does not exist`);
  const commit = values.commit ?? execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const only = values.games?.split(',').map((g) => g.trim());
  const runs = readdirSync(from)
    .filter((d) => d.endsWith(RUN_SUFFIX))
    .map((d) => ({ dir: path.join(from, d), game: d.slice(0, -RUN_SUFFIX.length) }))
    .filter((r) => !only || only.includes(r.game));
  if (!runs.length) fail(`no <game>${RUN_SUFFIX} run folders in ${from}${only ? ` for ${only.join(', ')}` : ''}`);

  for (const { dir, game } of runs) {
    const policyFile = path.join(dir, 'policy.agckpt');
    if (!existsSync(policyFile)) {
      console.warn(`save-generic-policies: ${game}: no policy.agckpt in ${dir} (did its training fail?), skipped`);
      continue;
    }
    const bytes = readFileSync(policyFile);
    const { header } = decodeCheckpoint(new Uint8Array(bytes));
    if (header.kind !== 'policy') fail(`${policyFile} is a ${header.kind} checkpoint, not a policy`);
    if (header.actions) fail(`${policyFile} acts through ${header.actions.kind} decisions: not the generic agent's preset keys`);
    const differs = notGeneric(header.config);
    if (differs) fail(`${policyFile}: ${differs}`);
    const entry = getGame(game);
    if (header.obsShape.length !== 1 || header.obsShape[0] !== entry.featureNames.length)
      fail(`${policyFile} reads [${header.obsShape}], ${game}'s vector has ${entry.featureNames.length} values: trained on another build?`);
    const info: GenericPolicyInfo = GenericPolicyInfo.parse({
      algorithm: header.algorithm,
      backend: values.backend,
      totalTimesteps: trainedSteps(path.join(dir, 'metrics.jsonl')),
      // The return and the two signals of whether it learned, per update: what its agent page plots.
      learningCurve: learningCurveFrom(readFileSync(path.join(dir, 'metrics.jsonl'), 'utf8'), CURVE_POINTS).map((p) => ({
        step: p.step,
        meanReturn: p.meanReturn,
        ...(p.update !== undefined ? { update: p.update } : {}),
        ...(p.entropy !== undefined ? { entropy: p.entropy } : {}),
        ...(p.explainedVariance !== undefined ? { explainedVariance: p.explainedVariance } : {}),
      })),
      checkpointSha256: createHash('sha256').update(bytes).digest('hex'),
      config: { generic: true, game: entry.manifest.id, gameVersion: entry.manifest.version, ppo: header.config },
      commit,
      command: `LEARN_GAMES=${game} LEARN_PRESETS=0 npm run bench:suite-learn`,
    });
    const gameDir = entry.external ? externalGameDir(game) : path.join(GAMES_DIR, game);
    writeFileSync(path.join(gameDir, GENERIC_POLICY_FILE), bytes);
    writeFileSync(path.join(gameDir, GENERIC_POLICY_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
    console.log(`save-generic-policies: ${game}: ${bytes.length} bytes, ${info.totalTimesteps} steps → ${path.relative(ROOT, gameDir)}/${GENERIC_POLICY_FILE}`);
  }
}

main();
