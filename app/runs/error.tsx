'use client';

import { PageError } from '../components/page-error';

export default function RunsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageError what="this page" error={error} retry={retry} />;
}
