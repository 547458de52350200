/**
 * The leaderboard table: a pure server component over loadLeaderboard's result (no data
 * fetching, no client JavaScript), so the page and bench/db.ts render exactly the same thing.
 * Sorting, filtering and paging are links: they work without JavaScript and on any phone.
 */
import type { ReactNode } from 'react';
import type { PlayView } from '../../leaderboard/play-mode';
import type { Cell, Leaderboard, LeaderboardRow, SortKey } from '../../leaderboard/queries';
import { MIN_SEEDS } from '../../leaderboard/scoring';
import { fmt, fmtScore, settingsSummary } from '../components/format';

export const VIEWS = ['normalised', 'ale', 'raw'] as const;
export type View = (typeof VIEWS)[number];

interface Params {
  suite: string;
  sort: SortKey;
  dir: 'asc' | 'desc';
  page: number;
  view: View;
  play: PlayView;
}

function href(p: Params, change: Partial<Params>): string {
  const next = { ...p, ...change };
  const q = new URLSearchParams();
  q.set('suite', next.suite);
  if (next.view !== 'normalised') q.set('view', next.view);
  if (next.play !== 'server') q.set('play', next.play);
  if (next.sort !== 'score') q.set('sort', next.sort);
  if (next.dir !== (next.sort === 'name' ? 'asc' : 'desc')) q.set('dir', next.dir);
  if (next.page > 1) q.set('page', String(next.page));
  return `/leaderboard?${q}`;
}

function SortHeader({ p, sort, label, title, numeric = true }: { p: Params; sort: SortKey; label: ReactNode; title?: string; numeric?: boolean }) {
  const active = p.sort === sort;
  const defaultDir = sort === 'name' ? 'asc' : 'desc';
  const dir = active ? (p.dir === 'asc' ? 'desc' : 'asc') : defaultDir;
  return (
    <th className={numeric ? 'lb-num' : undefined} aria-sort={active ? (p.dir === 'asc' ? 'ascending' : 'descending') : undefined} title={title}>
      <a href={href(p, { sort, dir, page: 1 })} className={active ? 'lb-sorted' : undefined}>
        {label}
        {active ? (p.dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </a>
    </th>
  );
}

function cellValue(c: Cell, view: View): number | null {
  return view === 'raw' ? c.meanScore : view === 'ale' ? c.aleNormalised : c.normalised;
}

function GameCell({ cell, view }: { cell: Cell | undefined; view: View }) {
  if (!cell) return <td className="lb-num lb-missing">—</td>;
  const short = cell.seeds < MIN_SEEDS;
  const main = cellValue(cell, view);
  const spread =
    view === 'raw'
      ? cell.stdScore
      : view === 'normalised' && cell.meanScore !== 0 && cell.normalised !== null
        ? (cell.stdScore * cell.normalised) / cell.meanScore
        : null;
  return (
    <td
      className={`lb-num${short ? ' lb-missing' : ''}`}
      title={`raw ${fmt(cell.meanScore)} ± ${fmt(cell.stdScore)} over ${cell.seeds} seeds (${cell.episodes} episodes)${cell.ci95 ? `, 95 % interval of the mean [${fmt(cell.ci95.lo)}, ${fmt(cell.ci95.hi)}]` : ''}, best ${fmtScore(cell.bestScore)}`}
    >
      {fmt(main)}
      <span className="lb-sub">
        {spread !== null ? `± ${fmt(Math.abs(spread))} · ` : ''}
        {short ? `${cell.seeds}/${MIN_SEEDS} seeds` : `${cell.seeds} seeds`}
        {view !== 'raw' ? ` · raw ${fmt(cell.meanScore)}` : ''}
      </span>
    </td>
  );
}

/** Whether every counted episode was replayed, and played on a ticket: shown on each entry, for baselines too. */
function AgentBadges({ row }: { row: LeaderboardRow }) {
  const cells = Object.values(row.cells);
  const replayed = cells.length > 0 && cells.every((c) => c.replayVerified);
  const ticketed = cells.length > 0 && cells.every((c) => c.ticketed);
  return (
    <>
      {row.serverPlayed ? (
        <span
          className="badge good"
          data-badge="server-played"
          title="Every counted episode was played by the server on seeds nobody saw before the play: a live ticket, a policy run, or a baseline"
        >
          server-played
        </span>
      ) : (
        <span
          className="badge"
          data-badge="known-seeds"
          title="Some counted episodes came from a ticket whose seeds its holder was given: they could have been searched offline"
        >
          known seeds
        </span>
      )}{' '}
      {row.agent.kind === 'baseline' ? (
        <span className="badge" title="A built-in agent the server runs itself (seed script); submitted and replayed like any run">
          baseline
        </span>
      ) : null}{' '}
      {ticketed ? (
        <span
          className="badge good"
          data-badge="ticketed"
          title="Every counted episode played seeds the server drew on an evaluation ticket, all of them, once each"
        >
          ticketed
        </span>
      ) : null}{' '}
      {replayed ? (
        <span className="badge good" data-badge="verified" title="Every counted episode was replayed step by step by the server, and is stored as replayed">
          verified
        </span>
      ) : null}
    </>
  );
}

export function LeaderboardView({ data, view }: { data: Leaderboard; view: View }) {
  const p: Params = { suite: data.suite, sort: data.sort, dir: data.dir, page: data.page, view, play: data.play };
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const first = data.total === 0 ? 0 : (data.page - 1) * data.pageSize + 1;
  const last = Math.min(data.total, data.page * data.pageSize);
  const meanLabel = view === 'ale' ? 'Mean (ALE)' : 'Mean';
  return (
    <>
      <div className="lb-toolbar">
        <nav className="lb-pills" aria-label="Suite">
          <span className="muted">Suite</span>
          {data.suites.map((s) => (
            <a
              key={s}
              href={href(p, { suite: s, page: 1, sort: 'score', dir: 'desc' })}
              className={s === data.suite ? 'lb-pill-active' : 'lb-pill'}
              aria-current={s === data.suite ? 'page' : undefined}
            >
              {s === 'all' ? 'all games' : s}
            </a>
          ))}
        </nav>
        <nav className="lb-pills" aria-label="Entries">
          <span className="muted">Entries</span>
          {(['server', 'any'] as const).map((v) => (
            <a
              key={v}
              href={href(p, { play: v, page: 1 })}
              className={v === data.play ? 'lb-pill-active' : 'lb-pill'}
              aria-current={v === data.play ? 'true' : undefined}
              title={
                v === 'server'
                  ? 'Played by the server on seeds nobody saw first: live tickets, policy runs, baselines'
                  : 'Also entries from known-seed tickets, whose seeds can have been searched offline'
              }
            >
              {v === 'server' ? 'server-played' : 'all, with known-seed tickets'}
            </a>
          ))}
        </nav>
        <nav className="lb-pills" aria-label="Scores">
          <span className="muted">Show</span>
          {VIEWS.map((v) => (
            <a
              key={v}
              href={href(p, { view: v, sort: v === 'ale' && p.sort === 'score' ? 'ale' : v !== 'ale' && p.sort === 'ale' ? 'score' : p.sort })}
              className={v === view ? 'lb-pill-active' : 'lb-pill'}
              aria-current={v === view ? 'true' : undefined}
            >
              {v === 'normalised' ? 'human-normalised' : v === 'ale' ? 'random–human (ALE)' : 'raw scores'}
            </a>
          ))}
        </nav>
      </div>
      <p className="muted" style={{ fontSize: '0.85rem' }}>
        {view === 'raw'
          ? 'Mean raw score ± std over seeds.'
          : view === 'ale'
            ? '100 × (agent − random) ÷ (human − random): the random agent scores 0, the human reference 100.'
            : '100 × agent ÷ human reference: the human reference scores 100.'}{' '}
        Each game counts from {MIN_SEEDS} seeds at its official step budget; the mean is over all {data.games.length} games of the suite, and agents missing one
        are shown as incomplete (never averaged over fewer). Only complete episodes on seeds the server drew (an evaluation ticket), replayed by the server,
        count.{' '}
        {data.play === 'server'
          ? 'Ranked here: entries the server played on seeds nobody saw first (live tickets, policy runs, baselines); a known-seed ticket can be searched offline, so those entries are in the other view.'
          : 'Every entry, known-seed tickets included: their seeds were given to the player, who could search them offline.'}
      </p>
      {data.rows.length === 0 ? (
        <div className="card lb-empty">
          <p>No entries in this suite yet.</p>
          <p className="muted">
            <code>npm start</code> seeds the random, scripted and ppo-generic baselines. To add an agent: <code>npx arcade-gym token create</code>, then{' '}
            <code>npx arcade-gym eval --suite core --agent … --server URL --token T --out run.jsonl</code> (plays the seeds of a ticket the server draws) and{' '}
            <code>npx arcade-gym submit run.jsonl --agent NAME</code>.
          </p>
        </div>
      ) : (
        <div className="scroll-x">
          <table className="lb-board" data-testid="leaderboard">
            <thead>
              <tr>
                <th className="lb-num">#</th>
                <SortHeader p={p} sort="name" label="Agent" numeric={false} />
                <th className="lb-hide-narrow">Settings</th>
                <SortHeader p={p} sort={view === 'ale' ? 'ale' : 'score'} label={meanLabel} title="Mean over the suite's games (complete agents only)" />
                <th
                  className="lb-num lb-hide-narrow"
                  title="Interquartile mean of the human-normalised score of every (game, seed), with its 95 % stratified-bootstrap interval (rliable); overlapping intervals are shown as tied"
                >
                  IQM <span className="lb-sub">95 % interval</span>
                </th>
                <SortHeader p={p} sort="games" label="Games" title={`Games with at least ${MIN_SEEDS} seeds`} />
                {data.games.map((g) => (
                  <SortHeader
                    key={g.id}
                    p={p}
                    sort={`game:${g.id}`}
                    title={`${g.title}: human reference ${g.human ? `${fmtScore(g.human.score)} (${g.human.status})` : 'none'}${g.random !== null ? `, random ${fmt(g.random)}` : ''}`}
                    label={
                      <>
                        {g.title}
                        <span className="lb-sub">
                          human {g.human ? fmtScore(g.human.score) : '—'}
                          {g.human?.status === 'provisional' ? '*' : ''}
                        </span>
                      </>
                    }
                  />
                ))}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => (
                <tr key={row.agent.id} data-agent={row.agent.name}>
                  <td className="lb-num">
                    {row.complete ? row.rank : <span className="lb-missing">{row.rank}</span>}
                    {row.tiedWithAbove ? (
                      <span
                        className="badge lb-sub"
                        data-badge="tied"
                        title="Its IQM interval overlaps the entry above: the two are not told apart by these seeds"
                      >
                        tied
                      </span>
                    ) : null}
                  </td>
                  <td className="lb-agent">
                    <a href={`/agents/${encodeURIComponent(row.agent.name)}`}>{row.agent.name}</a> <AgentBadges row={row} />
                    <span className="lb-sub lb-show-narrow">{settingsSummary(row.agent.settings)}</span>
                  </td>
                  <td className="lb-settings lb-hide-narrow">{settingsSummary(row.agent.settings)}</td>
                  <td className="lb-num">
                    {row.complete ? (
                      <strong>{fmt(view === 'ale' ? row.meanAleNormalised : row.meanNormalised)}</strong>
                    ) : (
                      <span className="badge lb-warn" title={`Has ${row.gamesCounted} of ${row.suiteGames} games with ${MIN_SEEDS}+ seeds`}>
                        incomplete
                      </span>
                    )}
                    {view === 'raw' && row.complete ? <span className="lb-sub">normalised</span> : null}
                  </td>
                  <td className="lb-num lb-hide-narrow" data-testid="iqm">
                    {row.iqm ? (
                      <>
                        {fmt(row.iqm.value)}
                        <span className="lb-sub">
                          [{fmt(row.iqm.lo)}, {fmt(row.iqm.hi)}]
                        </span>
                      </>
                    ) : (
                      <span className="lb-missing">—</span>
                    )}
                  </td>
                  <td className="lb-num">
                    {row.gamesCounted}/{row.suiteGames}
                  </td>
                  {data.games.map((g) => (
                    <GameCell key={g.id} cell={row.cells[g.id]} view={view} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="lb-pager">
        <span className="muted">
          {first}–{last} of {data.total} agents · * provisional human reference (the game author&apos;s estimate)
        </span>
        <span>
          {data.page > 1 ? <a href={href(p, { page: data.page - 1 })}>← previous</a> : null}
          {data.page > 1 && data.page < pages ? ' · ' : null}
          {data.page < pages ? <a href={href(p, { page: data.page + 1 })}>next →</a> : null}
        </span>
      </div>
    </>
  );
}
