'use client';

import { PageError } from '../components/page-error';

export default function AgentsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageError what="this page" error={error} retry={retry} />;
}
