import '../../components/board.css';
import { notFound } from 'next/navigation';
import { loadAgent } from '../../../leaderboard/queries';
import { MIN_SEEDS } from '../../../leaderboard/scoring';
import { AgentName } from '../../../leaderboard/submission-schema';
import { serverDb } from '../../../leaderboard/server';
import { fmt, fmtScore, settingsSummary, when } from '../../components/format';
import { LearningCurve } from '../../components/learning-curve';
import { TrainingDetails } from '../../components/training-details';

export const dynamic = 'force-dynamic';

/**
 * The agent name in the path, or null when it cannot be one: a name that fails the rule agents
 * are created with (a NUL, a stray "%", anything too long) cannot exist, and needs no query.
 */
function agentName(segment: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return AgentName.safeParse(name).success ? name : null;
}

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  return { title: `${agentName((await params).name) ?? 'No such agent'} · Arcade Gym` };
}

export default async function AgentPage({ params }: { params: Promise<{ name: string }> }) {
  const name = agentName((await params).name);
  if (name === null) notFound();
  const detail = await loadAgent(await serverDb(), name);
  if (!detail) notFound();
  const { agent, suites, games, runs, training } = detail;
  return (
    <>
      <h1>
        {agent.name} {agent.kind === 'baseline' ? <span className="badge">baseline</span> : <span className="badge good">submitted</span>}
      </h1>
      <dl className="lb-kv card">
        <dt>Settings</dt>
        <dd>{settingsSummary(agent.settings)}</dd>
        <dt>Since</dt>
        <dd>{when(agent.createdAt)}</dd>
        <dt>Kind</dt>
        <dd>
          {agent.kind === 'baseline' ? 'Built-in agent, run by this server (seed script)' : 'Submitted through the API; every episode replayed by the server'}
        </dd>
      </dl>

      <section className="lb-section">
        <h2>Suites</h2>
        {suites.length === 0 ? (
          <p className="muted">No ranked episodes yet.</p>
        ) : (
          <div className="scroll-x">
            <table className="lb-board">
              <thead>
                <tr>
                  <th>Suite</th>
                  <th className="lb-num">Mean normalised</th>
                  <th className="lb-num">Mean ALE</th>
                  <th className="lb-num">Games</th>
                </tr>
              </thead>
              <tbody>
                {suites.map((s) => (
                  <tr key={s.suite}>
                    <td>
                      <a href={`/leaderboard?suite=${encodeURIComponent(s.suite)}`}>{s.suite === 'all' ? 'all games' : s.suite}</a>
                    </td>
                    <td className="lb-num">{s.complete ? fmt(s.meanNormalised) : <span className="badge lb-warn">incomplete</span>}</td>
                    <td className="lb-num">{s.complete ? fmt(s.meanAleNormalised) : '—'}</td>
                    <td className="lb-num">
                      {s.gamesCounted}/{s.suiteGames}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="lb-section">
        <h2>Games</h2>
        {games.length === 0 ? (
          <p className="muted">No ranked episodes yet.</p>
        ) : (
          <div className="scroll-x">
            <table className="lb-board" data-testid="agent-games">
              <thead>
                <tr>
                  <th>Game</th>
                  <th className="lb-num">Score (mean ± std)</th>
                  <th className="lb-num">Seeds</th>
                  <th className="lb-num">Normalised</th>
                  <th className="lb-num">ALE</th>
                  <th className="lb-num lb-hide-narrow">Best</th>
                  <th className="lb-num lb-hide-narrow">Human</th>
                </tr>
              </thead>
              <tbody>
                {games.map((g) => (
                  <tr key={g.id} data-game={g.id}>
                    <td>
                      <a href={`/games/${g.id}`}>{g.title}</a> {g.cell.replayVerified ? <span className="badge good">verified</span> : null}
                    </td>
                    <td className="lb-num">
                      {fmt(g.cell.meanScore)} ± {fmt(g.cell.stdScore)}
                    </td>
                    <td className={`lb-num${g.cell.seeds < MIN_SEEDS ? ' lb-missing' : ''}`}>
                      {g.cell.seeds}
                      <span className="lb-sub">{g.cell.episodes} episodes</span>
                    </td>
                    <td className="lb-num">{fmt(g.cell.normalised)}</td>
                    <td className="lb-num">{fmt(g.cell.aleNormalised)}</td>
                    <td className="lb-num lb-hide-narrow">{fmtScore(g.cell.bestScore)}</td>
                    <td className="lb-num lb-hide-narrow">
                      {g.human ? fmtScore(g.human.score) : '—'}
                      {g.human?.status === 'provisional' ? <span className="lb-sub">provisional</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {training ? (
        <section className="lb-section" data-testid="agent-training">
          <h2>
            Training{' '}
            <span className="muted">
              (as claimed, run <a href={`/runs/${training.runId}`}>{training.runId.slice(0, 8)}</a>)
            </span>
          </h2>
          {training.learningCurve.length > 1 ? (
            <LearningCurve points={training.learningCurve} />
          ) : (
            <p className="muted">The run sent {training.learningCurve.length === 1 ? 'one point' : 'no points'} of its learning curve.</p>
          )}
          {training.training ? <TrainingDetails training={training.training} /> : null}
        </section>
      ) : null}

      <section className="lb-section">
        <h2>Runs</h2>
        <div className="scroll-x">
          <table className="lb-board" data-testid="agent-runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>When</th>
                <th className="lb-num">Episodes</th>
                <th>Games</th>
                <th className="lb-hide-narrow">Settings</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <a href={`/runs/${r.id}`}>{r.id.slice(0, 8)}</a> {r.kind === 'training' ? <span className="badge">training</span> : null}
                  </td>
                  <td>{when(r.createdAt)}</td>
                  <td className="lb-num">{r.episodeCount}</td>
                  <td style={{ whiteSpace: 'normal' }}>{r.gameIds.join(', ')}</td>
                  <td className="lb-settings lb-hide-narrow">{settingsSummary(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
