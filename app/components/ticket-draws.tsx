import type { TicketDrawSummary } from '../../leaderboard/queries';
import { BoardTable } from './data-table';

/**
 * The tickets a token drew for an agent per game, and what became of them: drawing several and
 * submitting the best is visible here, and the forfeited seeds are in the score (leaderboard/README.md, "Scores").
 */
export function TicketDraws({ draws, testId }: { draws: TicketDrawSummary[]; testId: string }) {
  return (
    <section className="lb-section" data-testid={testId}>
      <h2>
        Tickets <span className="muted">(drawn by the agent’s token; seeds of tickets without ranked play count at the forfeit score)</span>
      </h2>
      <BoardTable
        empty="No evaluation tickets drawn by this agent's token for these games."
        rows={draws}
        rowKey={(d) => d.gameId}
        rowProps={(d) => ({ 'data-game': d.gameId })}
        columns={[
          { head: 'Game', cell: (d) => <a href={`/games/${d.gameId}`}>{d.gameId}</a> },
          { head: 'Drawn', className: 'lb-num', cell: (d) => d.drawn },
          { head: 'Submitted', className: 'lb-num', cell: (d) => d.submitted },
          { head: 'Ranked', className: 'lb-num', cell: (d) => d.ranked },
          {
            head: 'Forfeited seeds',
            className: 'lb-num',
            td: (d) => ({ className: `lb-num${d.forfeitedSeeds > 0 ? ' lb-missing' : ''}` }),
            cell: (d) => d.forfeitedSeeds,
          },
        ]}
      />
    </section>
  );
}
