import { histogram } from '../../leaderboard/histogram';
import { loadGame } from '../../leaderboard/queries';
import { serverDb } from '../../leaderboard/server';
import { BoardTable } from './data-table';
import { fmt, fmtScore, replayHref } from './format';
import { ScoreHistogram } from './score-histogram';

/**
 * The leaderboard half of a game's page: its references with their provenance, the
 * distribution of verified scores and the top episodes. Rendered inside a Suspense boundary,
 * so the game's own description shows at once and a database problem stays in this section.
 */
export async function GameResults({ gameId }: { gameId: string }) {
  let detail;
  try {
    detail = await loadGame(await serverDb(), gameId);
  } catch (e) {
    console.error(`game page ${gameId}: leaderboard data unavailable:`, e);
    return (
      <p className="card" role="alert">
        Leaderboard data for this game is unavailable right now.
      </p>
    );
  }
  if (!detail) return <p className="muted">No leaderboard entries for this game yet.</p>;
  const { game, references, top, scores } = detail;
  return (
    <>
      <section className="lb-section">
        <h2>References</h2>
        <div className="scroll-x">
          <table className="lb-board" data-testid="game-references">
            <thead>
              <tr>
                <th>Reference</th>
                <th className="lb-num">Score</th>
                <th>Status</th>
              </tr>
            </thead>
            {references.map((r) => (
              // The provenance gets a full-width row of its own: it is prose, and phones are narrow.
              <tbody key={r.kind} data-reference={r.kind}>
                <tr>
                  <td style={{ borderBottom: 'none' }}>{r.kind === 'human' ? 'Human (normalised 100)' : 'Random agent (ALE 0)'}</td>
                  <td className="lb-num" style={{ borderBottom: 'none' }}>
                    {fmt(r.score)}
                  </td>
                  <td style={{ borderBottom: 'none' }}>
                    <span className={`badge${r.status === 'verified' ? ' good' : ' lb-warn'}`}>{r.status}</span>
                    <span className="lb-sub">
                      {r.stepBudget} steps{r.episodes ? ` · ${r.episodes} episodes` : ''}
                    </span>
                  </td>
                </tr>
                <tr>
                  <td colSpan={3} className="muted" style={{ whiteSpace: 'normal', fontSize: '0.8rem', paddingTop: 0 }}>
                    {r.provenance}
                  </td>
                </tr>
              </tbody>
            ))}
          </table>
        </div>
      </section>

      <section className="lb-section">
        <h2>
          Score distribution{' '}
          <span className="muted">
            ({scores.length} verified episodes, {detail.agents} agents)
          </span>
        </h2>
        {scores.length ? (
          <ScoreHistogram bins={histogram(scores)} human={game.human?.score ?? null} random={game.random} />
        ) : (
          <p className="muted">No ranked episodes yet.</p>
        )}
      </section>

      <section className="lb-section">
        <h2>Top episodes</h2>
        <BoardTable
          testId="top-episodes"
          empty="None yet."
          rows={top}
          rowKey={(e) => e.id}
          columns={[
            { head: '#', className: 'lb-num', cell: (_, i) => i + 1 },
            {
              head: 'Agent',
              cell: (e) => (
                <>
                  <a href={`/agents/${encodeURIComponent(e.agent)}`}>{e.agent}</a>{' '}
                  {e.verification === 'verified' ? <span className="badge good">verified</span> : <span className="badge">baseline</span>}
                </>
              ),
            },
            { head: 'Score', className: 'lb-num', cell: (e) => fmtScore(e.score) },
            { head: 'Steps', className: 'lb-num', cell: (e) => e.length },
            { head: 'Seed', className: 'lb-num', cell: (e) => e.seed },
            { head: 'Run', cell: (e) => <a href={`/runs/${e.runId}`}>{e.runId.slice(0, 8)}</a> },
            { head: 'Replay', cell: (e) => <a href={replayHref(e.id)}>replay</a> },
          ]}
        />
      </section>
    </>
  );
}

export function GameResultsSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading results">
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="lb-skeleton" style={{ width: `${80 - i * 10}%` }} />
      ))}
    </div>
  );
}
