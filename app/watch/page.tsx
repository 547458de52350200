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
        <div className="card scroll-x">
          <table data-testid="live-sessions">
            <thead>
              <tr>
                <th>Session</th>
                <th>Game</th>
                <th>State</th>
                <th>Step</th>
                <th>Score</th>
                <th>Watching</th>
              </tr>
            </thead>
            <tbody>
              {live.sessions.map((s) => (
                <tr key={s.id} data-session={s.id}>
                  <td>
                    <a href={`/watch/${encodeURIComponent(s.id)}`}>{s.id.slice(0, 12)}</a>
                  </td>
                  <td>{s.game}</td>
                  <td>
                    {s.state}
                    {s.episodeInProgress ? '' : ' (between episodes)'}
                  </td>
                  <td>
                    {s.episodeSteps} / {s.maxSteps}
                  </td>
                  <td>{s.score}</td>
                  <td>{s.watchers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
