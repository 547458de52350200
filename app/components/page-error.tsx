'use client';

import { useEffect } from 'react';

/** The error state of the leaderboard pages: what failed, and a way to try again. */
export function PageError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && 'digest' in error ? String((error as { digest?: unknown }).digest ?? '') : '';
  return (
    <div className="card" role="alert">
      <h1 style={{ marginTop: 0 }}>Could not load {what}</h1>
      <p className="muted">The leaderboard database did not answer. Nothing was lost; it may be starting up.{digest ? ` (error ${digest})` : ''}</p>
      <button
        type="button"
        onClick={() => retry()}
        style={{
          font: 'inherit',
          padding: '0.35rem 0.9rem',
          borderRadius: 6,
          border: '1px solid var(--border)',
          background: 'var(--panel)',
          color: 'var(--text)',
          cursor: 'pointer',
        }}
      >
        Try again
      </button>
    </div>
  );
}
