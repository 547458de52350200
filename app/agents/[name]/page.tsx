import '../../components/board.css';
import { notFound } from 'next/navigation';
import { loadAgent } from '../../../leaderboard/queries';
import { MIN_SEEDS } from '../../../leaderboard/scoring';
import { AgentName } from '../../../leaderboard/submission-schema';
import { serverDb } from '../../../leaderboard/server';
import { BoardTable } from '../../components/data-table';
import { fmt, fmtScore, settingsSummary, when } from '../../components/format';
import { LearningCurve } from '../../components/learning-curve';
import { TicketDraws } from '../../components/ticket-draws';
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
  const { agent, suites, games, runs, training, tickets } = detail;
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
        <BoardTable
          empty="No ranked episodes yet."
          rows={suites}
          rowKey={(s) => s.suite}
          columns={[
            { head: 'Suite', cell: (s) => <a href={`/leaderboard?suite=${encodeURIComponent(s.suite)}`}>{s.suite === 'all' ? 'all games' : s.suite}</a> },
            {
              head: 'Mean normalised',
              className: 'lb-num',
              cell: (s) => (s.complete ? fmt(s.meanNormalised) : <span className="badge lb-warn">incomplete</span>),
            },
            { head: 'Mean ALE', className: 'lb-num', cell: (s) => (s.complete ? fmt(s.meanAleNormalised) : '—') },
            { head: 'Games', className: 'lb-num', cell: (s) => `${s.gamesCounted}/${s.suiteGames}` },
          ]}
        />
      </section>

      <section className="lb-section">
        <h2>Games</h2>
        <BoardTable
          testId="agent-games"
          empty="No ranked episodes yet."
          rows={games}
          rowKey={(g) => g.id}
          rowProps={(g) => ({ 'data-game': g.id })}
          columns={[
            {
              head: 'Game',
              cell: (g) => (
                <>
                  <a href={`/games/${g.id}`}>{g.title}</a> {g.cell.replayVerified ? <span className="badge good">verified</span> : null}
                </>
              ),
            },
            { head: 'Score (mean ± std)', className: 'lb-num', cell: (g) => `${fmt(g.cell.meanScore)} ± ${fmt(g.cell.stdScore)}` },
            {
              head: 'Seeds',
              className: 'lb-num',
              td: (g) => ({ className: `lb-num${g.cell.seeds < MIN_SEEDS ? ' lb-missing' : ''}` }),
              cell: (g) => (
                <>
                  {g.cell.seeds}
                  <span className="lb-sub">
                    {g.cell.episodes} episodes{g.cell.forfeitedSeeds > 0 ? `, ${g.cell.forfeitedSeeds} seeds forfeited` : ''}
                  </span>
                </>
              ),
            },
            { head: 'Normalised', className: 'lb-num', cell: (g) => fmt(g.cell.normalised) },
            { head: 'ALE', className: 'lb-num', cell: (g) => fmt(g.cell.aleNormalised) },
            { head: 'Best', className: 'lb-num lb-hide-narrow', cell: (g) => fmtScore(g.cell.bestScore) },
            {
              head: 'Human',
              className: 'lb-num lb-hide-narrow',
              cell: (g) => (
                <>
                  {g.human ? fmtScore(g.human.score) : '—'}
                  {g.human?.status === 'provisional' ? <span className="lb-sub">provisional</span> : null}
                </>
              ),
            },
          ]}
        />
      </section>

      {agent.kind === 'submitted' ? <TicketDraws draws={tickets} testId="agent-tickets" /> : null}

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
        <BoardTable
          testId="agent-runs"
          rows={runs}
          rowKey={(r) => r.id}
          columns={[
            {
              head: 'Run',
              cell: (r) => (
                <>
                  <a href={`/runs/${r.id}`}>{r.id.slice(0, 8)}</a> {r.kind === 'training' ? <span className="badge">training</span> : null}
                </>
              ),
            },
            { head: 'When', cell: (r) => when(r.createdAt) },
            { head: 'Episodes', className: 'lb-num', cell: (r) => r.episodeCount },
            { head: 'Games', td: () => ({ style: { whiteSpace: 'normal' } }), cell: (r) => r.gameIds.join(', ') },
            { head: 'Settings', className: 'lb-hide-narrow', td: () => ({ className: 'lb-settings lb-hide-narrow' }), cell: (r) => settingsSummary(r) },
          ]}
        />
      </section>
    </>
  );
}
