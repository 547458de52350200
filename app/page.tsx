import { readCatalog } from './catalog';
import { GameGallery } from './game-gallery';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const catalog = await readCatalog();
  const webgl = catalog.games.filter((g) => g.manifest.renderer === 'webgl').length;
  return (
    <>
      <h1>Arcade Gym</h1>
      <p className="muted">
        {catalog.games.length} browser games ({webgl} in WebGL) for agents and people, run in virtual time: the same game version, seed and actions give the
        same episode, bit for bit, in the headless gym and in your browser. Every ranked leaderboard entry, the built-in baselines included, played seeds the
        server drew on an evaluation ticket and was replayed by the server, which stores what its replay gave.
      </p>
      <GameGallery games={catalog.games} />
    </>
  );
}
