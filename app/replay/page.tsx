import { readCatalog } from '../catalog';
import { ReplayLoader } from './replay-loader';

export const dynamic = 'force-dynamic';

export default async function ReplayPage() {
  const catalog = await readCatalog();
  return (
    <>
      <h1>Replay an episode</h1>
      <p className="muted">
        Replays are re-simulated, not videos: your browser runs the same game build with the record&apos;s seed and actions, and checks every step against the
        record.
      </p>
      <ReplayLoader games={catalog.games} />
    </>
  );
}
