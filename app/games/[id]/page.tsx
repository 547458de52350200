import '../../components/board.css';
import { Suspense } from 'react';
import { notFound } from 'next/navigation';
import { readCatalog } from '../../catalog';
import { GameResults, GameResultsSkeleton } from '../../components/game-results';

export const dynamic = 'force-dynamic';

export default async function GamePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const game = (await readCatalog()).games.find((g) => g.manifest.id === id);
  if (!game) notFound();
  const m = game.manifest;
  return (
    <>
      <h1>{m.title}</h1>
      <p>{m.description}</p>
      <p className="muted">Controls: {m.controls}</p>
      <div className="card scroll-x">
        <table>
          <tbody>
            <tr>
              <th>Version</th>
              <td>{m.version}</td>
            </tr>
            <tr>
              <th>Renderer</th>
              <td>{m.renderer}</td>
            </tr>
            <tr>
              <th>Step budget</th>
              <td>
                {m.stepBudget} steps × {m.msPerStep} virtual ms
              </td>
            </tr>
            <tr>
              <th>Actions</th>
              <td>{m.preset.map((p) => p.name).join(', ')}</td>
            </tr>
            <tr>
              <th>Manifest human reference</th>
              <td>
                {m.humanReference.score} <span className="badge">{m.humanReference.status}</span> <span className="muted">{m.humanReference.provenance}</span>
              </td>
            </tr>
            <tr>
              <th>Verifier checksum</th>
              <td>
                <code>{game.verifierChecksum.slice(0, 16)}…</code>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        <a href={`/play/${m.id}`}>Play under gym rules</a> · <a href={`/train/${m.id}`}>Train PPO in your browser</a> ·{' '}
        <a href={`${game.basePath}index.html`}>Play freely in real time</a>
      </p>
      <Suspense fallback={<GameResultsSkeleton />}>
        <GameResults gameId={m.id} />
      </Suspense>
    </>
  );
}
