import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { notFound } from 'next/navigation';
import { existsSync } from 'node:fs';
import { readCatalog } from '../../catalog';
import { TrainView } from '../train-view';

export const dynamic = 'force-dynamic';

/** games/<id>/train.json or games-external/<id>/train.json, as gym/ppo/preset.ts finds it (from the site's working folder, like app/catalog.ts). */
function trainPresetPath(id: string): string | null {
  for (const dir of ['games', 'games-external']) {
    const file = path.join(process.cwd(), dir, id, 'train.json');
    if (existsSync(file)) return file;
  }
  return null;
}

/** CartPole needs no game page: the trainer's smallest environment, for trying the page out. */
const CARTPOLE = 'cartpole';

export default async function TrainPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const game = id === CARTPOLE ? null : (await readCatalog()).games.find((g) => g.manifest.id === id);
  if (game === undefined) notFound();
  // The preset as `arcade-gym train` reads it (games/<id>/train.json); the page resolves it with the CLI's rules.
  const file = game ? trainPresetPath(id) : null;
  const preset = file ? (JSON.parse(await readFile(file, 'utf8')) as unknown) : null;
  const presetPath = file ? path.relative(process.cwd(), file) : null;
  return (
    <>
      <h1>Train PPO on {game ? game.manifest.title : 'CartPole'}</h1>
      <p className="muted">
        In this browser: {game ? 'game instances in virtual time in frames of this page' : 'CartPole-v1 in this page'}, PPO updates on your GPU through WebGPU
        (or on the CPU where WebGPU is missing). The model stays in this page unless you download or submit it.
      </p>
      <TrainView id={id} game={game} preset={preset} presetPath={presetPath} />
    </>
  );
}
