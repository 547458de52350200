import { readCatalog } from './catalog';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const catalog = await readCatalog();
  return (
    <>
      <h1>Arcade Gym</h1>
      <p className="muted">
        {catalog.games.length} browser games for agents and people, run in virtual time: the same game version, seed and
        actions give the same episode, bit for bit, in the headless gym and in your browser.
      </p>
      <div className="grid">
        {catalog.games.map((g) => (
          <div className="card" key={g.manifest.id} data-game={g.manifest.id}>
            <h3 style={{ margin: '0 0 0.25rem' }}>
              <a href={`/games/${g.manifest.id}`}>{g.manifest.title}</a>
            </h3>
            <div className="muted" style={{ fontSize: '0.85rem' }}>
              {g.manifest.renderer === 'webgl' ? 'WebGL' : g.manifest.renderer === 'dom' ? 'DOM' : 'Canvas 2D'} · v{g.manifest.version} ·{' '}
              {g.manifest.preset.length} actions
            </div>
            <p style={{ fontSize: '0.9rem' }}>{g.manifest.description}</p>
            <a href={`${g.basePath}index.html`}>Play in real time</a>
          </div>
        ))}
      </div>
    </>
  );
}
