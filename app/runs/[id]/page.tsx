import '../../components/board.css';
import { notFound } from 'next/navigation';
import { TicketDraws } from '../../components/ticket-draws';
import { loadRun } from '../../../leaderboard/queries';
import { serverDb } from '../../../leaderboard/server';
import { BoardTable } from '../../components/data-table';
import { fmtScore, replayHref, settingsSummary, when } from '../../components/format';
import { LearningCurve } from '../../components/learning-curve';
import { TrainingDetails } from '../../components/training-details';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Run ${(await params).id.slice(0, 8)} · Arcade Gym` };
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // Run ids are UUIDs: anything else cannot exist, and needs no query.
  if (!/^[0-9a-f-]{36}$/.test(id)) notFound();
  const detail = await loadRun(await serverDb(), id);
  if (!detail) notFound();
  const { run, agent, episodes, tickets } = detail;
  const human = run.kind === 'human';
  const unranked = episodes.filter((e) => !e.ranked).length;
  const claimedBrowsers = [...new Set(episodes.map((e) => (e.claimed ? `${e.claimed.browser.name} ${e.claimed.browser.version}` : null)).filter(Boolean))];
  const replayBrowsers = [
    ...new Set(
      episodes.map((e) => (e.replay ? `${e.replay.browser.name} ${e.replay.browser.version}, runtime ${e.replay.runtimeVersion}` : null)).filter(Boolean),
    ),
  ];
  return (
    <>
      <h1>
        Run <code>{run.id.slice(0, 8)}</code>{' '}
        {human ? <span className="badge">human reference play</span> : run.kind === 'training' ? <span className="badge">training</span> : null}
      </h1>
      <dl className="lb-kv card">
        <dt>{human ? 'Player' : 'Agent'}</dt>
        <dd>{agent ? <a href={`/agents/${encodeURIComponent(agent.name)}`}>{agent.name}</a> : run.player}</dd>
        <dt>Submitted</dt>
        <dd>{when(run.createdAt)}</dd>
        <dt>Ticket</dt>
        <dd data-testid="run-ticket">
          {run.ticketId ? (
            <>
              <span className="badge good">ticketed</span> <code>{run.ticketId}</code>: seeds drawn by the server
            </>
          ) : (
            <>
              <span className="badge lb-warn">self-seeded</span> no evaluation ticket
            </>
          )}
        </dd>
        <dt>Ranked</dt>
        <dd data-testid="run-ranked">
          {episodes.length - unranked} of {episodes.length} episodes
          {run.unrankedReason ? <span className="lb-sub">{run.unrankedReason}</span> : null}
        </dd>
        <dt>Replayed on</dt>
        <dd title="Every stored field the replay reproduces is the replay's">{replayBrowsers.join('; ') || '—'}</dd>
        <dt>Games</dt>
        <dd>
          {run.gameIds.map((g, i) => (
            <span key={g}>
              {i > 0 ? ', ' : ''}
              <a href={`/games/${g}`}>{g}</a>
            </span>
          ))}
        </dd>
        <dt>Observation</dt>
        <dd>{run.observation.join(', ')}</dd>
        <dt>Actions</dt>
        <dd>
          {run.actionSpace === 'discrete'
            ? 'the game’s preset (discrete)'
            : run.actionSpace === 'gui'
              ? 'GUI actions (click, drag, key…)'
              : 'preset and GUI actions'}
        </dd>
        <dt>Step budget</dt>
        <dd>
          {run.stepBudget ? `${run.stepBudget} steps` : 'each game’s own'}
          {run.msPerStep ? ` × ${run.msPerStep} virtual ms` : ''}{' '}
          {run.official ? <span className="badge good">official</span> : <span className="badge lb-warn">unofficial: not ranked</span>}
        </dd>
        <dt>Harness / model</dt>
        <dd>
          {[run.harness, run.model].filter(Boolean).join(' / ') || '—'} <span className="muted">(as claimed)</span>
        </dd>
        <dt>Code version</dt>
        <dd>
          {run.codeVersion ?? '—'} <span className="muted">(as claimed)</span>
        </dd>
        <dt>Client browser</dt>
        <dd>
          {claimedBrowsers.join('; ') || '—'} <span className="muted">(as claimed)</span>
        </dd>
        <dt>Client id</dt>
        <dd>
          <code>{run.clientId}</code>
        </dd>
        <dt>Summary</dt>
        <dd>{settingsSummary(run)}</dd>
      </dl>

      {agent?.kind === 'submitted' ? <TicketDraws draws={tickets} testId="run-tickets" /> : null}

      {run.learningCurve && run.learningCurve.length > 1 ? (
        <section className="lb-section">
          <h2>
            Learning curve <span className="muted">(as claimed: mean episode return during training)</span>
          </h2>
          <LearningCurve points={run.learningCurve} />
        </section>
      ) : null}

      {run.training ? (
        <section className="lb-section">
          <h2>Training</h2>
          <TrainingDetails training={run.training} />
        </section>
      ) : null}

      <section className="lb-section">
        <h2>
          Episodes{' '}
          <span className="muted">
            ({episodes.length}
            {unranked ? `, ${unranked} not ranked` : ''})
          </span>
        </h2>
        <BoardTable
          testId="run-episodes"
          rows={episodes}
          rowKey={(e) => e.id}
          rowProps={(e) => ({ 'data-episode': e.id })}
          columns={[
            {
              head: 'Game',
              cell: (e) => (
                <>
                  <a href={`/games/${e.gameId}`}>{e.gameId}</a>
                  {!e.ranked ? (
                    <span className="lb-sub" data-testid="unranked-reason">
                      not ranked: {e.unrankedReason ?? 'not eligible'}
                    </span>
                  ) : null}
                </>
              ),
            },
            { head: 'Seed', className: 'lb-num', cell: (e) => e.seed },
            { head: 'Score', className: 'lb-num', cell: (e) => fmtScore(e.score) },
            { head: 'Steps', className: 'lb-num', cell: (e) => e.length },
            { head: 'End', cell: (e) => (e.terminated ? 'game over' : e.truncated ? 'budget' : '—') },
            {
              head: 'Verification',
              td: (e) => ({ title: e.verificationReason }),
              cell: (e) => (
                <>
                  {e.verification === 'verified' ? <span className="badge good">verified</span> : <span className="badge lb-warn">not replayed</span>}{' '}
                  {e.ticketed ? <span className="badge good">ticketed</span> : null}
                </>
              ),
            },
            { head: 'Replay', cell: (e) => (human ? <span className="muted">—</span> : <a href={replayHref(e.id)}>replay</a>) },
          ]}
        />
      </section>
    </>
  );
}
