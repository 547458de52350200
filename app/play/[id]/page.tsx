import { notFound } from 'next/navigation';
import { readCatalog } from '../../catalog';
import { PlaySession } from '../play-session';

export const dynamic = 'force-dynamic';

export default async function PlayPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const game = (await readCatalog()).games.find((g) => g.manifest.id === id);
  if (!game) notFound();
  return (
    <>
      <h1>Play {game.manifest.title}</h1>
      <p className="muted">
        Under the same rules as agents: seeded, {game.manifest.stepBudget} steps, each input one step. Your episode record can become a human reference once the
        server has re-simulated it.
      </p>
      <PlaySession game={game} />
    </>
  );
}
