import { notFound } from 'next/navigation';
import { readCatalog } from '../../catalog';

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
            <tr><th>Version</th><td>{m.version}</td></tr>
            <tr><th>Renderer</th><td>{m.renderer}</td></tr>
            <tr><th>Step budget</th><td>{m.stepBudget} steps × {m.msPerStep} virtual ms</td></tr>
            <tr><th>Actions</th><td>{m.preset.map((p) => p.name).join(', ')}</td></tr>
            <tr><th>Human reference</th><td>{m.humanReference.score} <span className="badge">{m.humanReference.status}</span> <span className="muted">{m.humanReference.provenance}</span></td></tr>
            <tr><th>Verifier checksum</th><td><code>{game.verifierChecksum.slice(0, 16)}…</code></td></tr>
          </tbody>
        </table>
      </div>
      <p>
        <a href={`${game.basePath}index.html`}>Play in real time</a> · <a href={`${game.basePath}index.html?arcade-seed=1&arcade-width=${m.canvas.width}&arcade-height=${m.canvas.height}`}>Open seeded (virtual time)</a>
      </p>
    </>
  );
}
