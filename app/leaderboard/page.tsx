import '../components/board.css';
import { loadLeaderboard } from '../../leaderboard/queries';
import { serverDb } from '../../leaderboard/server';
import { LeaderboardView } from './leaderboard-view';
import { parseLeaderboardParams, type Search } from './params';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Leaderboard · Arcade Gym' };

export default async function LeaderboardPage({ searchParams }: { searchParams: Search }) {
  const { view, ...query } = parseLeaderboardParams(await searchParams);
  const data = await loadLeaderboard(await serverDb(), query);
  return (
    <>
      <h1>Leaderboard</h1>
      <LeaderboardView data={data} view={view} />
    </>
  );
}
