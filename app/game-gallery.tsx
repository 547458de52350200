import type { CatalogEntry } from '../gym/schema';
import { LiveThumbnail } from './live-thumbnail';

const RENDERER: Record<string, string> = { '2d': 'Canvas 2D', webgl: 'WebGL', dom: 'DOM' };

export function GameGallery({ games }: { games: CatalogEntry[] }) {
  return (
    <div className="grid">
      {games.map((g) => {
        const m = g.manifest;
        return (
          <div className="card" key={m.id} data-game={m.id}>
            <LiveThumbnail game={g} width={206} />
            <h3 style={{ margin: '0.5rem 0 0.25rem' }}>
              <a href={`/games/${m.id}`}>{m.title}</a>
            </h3>
            <div className="muted" style={{ fontSize: '0.8rem' }}>
              {RENDERER[m.renderer]} · v{m.version} · {m.preset.length} actions · human {m.humanReference.score}
              {m.humanReference.status === 'provisional' ? ' (provisional)' : ' (verified)'}
            </div>
            <p className="clamp" style={{ fontSize: '0.88rem' }} title={m.description}>
              {m.description}
            </p>
            <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap', fontSize: '0.9rem' }}>
              <a href={`/play/${m.id}`}>Play</a>
              <a href={`/leaderboard?game=${m.id}`}>Leaderboard</a>
              <a href={`/games/${m.id}`}>Details &amp; replays</a>
            </div>
          </div>
        );
      })}
    </div>
  );
}
