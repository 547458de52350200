'use client';

import { PageError } from '../components/page-error';

export default function LeaderboardError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageError what="the leaderboard" error={error} retry={retry} />;
}
