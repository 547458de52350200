import { LiveView } from './live-view';

export const dynamic = 'force-dynamic';

export default async function WatchSession({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <h1>Watching session {id.slice(0, 12)}</h1>
      <p className="muted">Frames come straight from the session&apos;s headless page, at most ten a second, only while this page is open.</p>
      <LiveView id={id} />
    </>
  );
}
