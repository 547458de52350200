import { DataTable } from '../components/data-table';
import { listLiveSessions } from '../gym-server';

export const dynamic = 'force-dynamic';

export default async function WatchIndex() {
  const live = await listLiveSessions();
  return (
    <>
      <h1>Live sessions</h1>
      {'error' in live ? (
        <p className="muted" data-testid="watch-error">
          Nothing to watch: {live.error}. Start one with <code>npx arcade-gym serve</code> (the site looks for it at <code>ARCADE_GYM_URL</code>).
        </p>
      ) : live.sessions.length === 0 ? (
        <p className="muted">No sessions are open on the gym server right now.</p>
      ) : (
        <DataTable
          wrap="card scroll-x"
          testId="live-sessions"
          rows={live.sessions}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ 'data-session': s.id })}
          columns={[
            { head: 'Session', cell: (s) => <a href={`/watch/${encodeURIComponent(s.id)}`}>{s.id.slice(0, 12)}</a> },
            { head: 'Game', cell: (s) => s.game },
            { head: 'State', cell: (s) => `${s.state}${s.episodeInProgress ? '' : ' (between episodes)'}` },
            { head: 'Step', cell: (s) => `${s.episodeSteps} / ${s.maxSteps}` },
            { head: 'Score', cell: (s) => s.score },
            { head: 'Watching', cell: (s) => s.watchers },
          ]}
        />
      )}
    </>
  );
}
