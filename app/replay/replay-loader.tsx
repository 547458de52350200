'use client';

import { useEffect, useState } from 'react';
import { type CatalogEntry, EpisodeRecord } from '../../gym/schema';
import { EpisodeReplay } from './episode-replay';

/** Checks that a record can be replayed on this site's build of its game. */
export function matchGame(games: CatalogEntry[], input: unknown): { record: EpisodeRecord; game: CatalogEntry } | { error: string } {
  const parsed = EpisodeRecord.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `Not an episode record: "${issue.path.join('.')}" ${issue.message}` };
  }
  const record = parsed.data;
  const game = games.find((g) => g.manifest.id === record.gameId);
  if (!game) return { error: `This site has no game "${record.gameId}"` };
  if (game.manifest.version !== record.gameVersion)
    return { error: `The record was made with ${record.gameId} ${record.gameVersion}; this site has ${game.manifest.version}` };
  if (game.verifierChecksum !== record.verifierChecksum)
    return { error: `The record's verifier checksum does not match this site's verifier for ${record.gameId}` };
  return { record, game };
}

/** Replays a record from a file the visitor picks, or from ?src=<url> (one JSON record, or the first line of a JSONL file). */
export function ReplayLoader({ games }: { games: CatalogEntry[] }) {
  const [state, setState] = useState<{ record: EpisodeRecord; game: CatalogEntry } | { error: string } | null>(null);

  const load = (text: string) => {
    try {
      const first = text.trim().split('\n')[0];
      setState(matchGame(games, JSON.parse(first)));
    } catch (e) {
      setState({ error: `Could not read the record: ${e instanceof Error ? e.message : e}` });
    }
  };

  useEffect(() => {
    const src = new URLSearchParams(window.location.search).get('src');
    if (!src) return;
    fetch(src)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${r.status} ${r.statusText}`))))
      .then(load, (e: unknown) => setState({ error: `Could not fetch ${src}: ${e instanceof Error ? e.message : e}` }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <p>
        <label>
          Episode record (JSON or JSONL from <code>arcade-gym eval --out</code>):{' '}
          <input
            type="file"
            accept=".json,.jsonl,application/json"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) load(await f.text());
            }}
          />
        </label>
      </p>
      {state && 'error' in state && (
        <p role="alert" style={{ color: 'var(--bad)' }}>
          {state.error}
        </p>
      )}
      {state && 'record' in state && <EpisodeReplay key={`${state.record.seed}-${state.record.actions.length}`} record={state.record} game={state.game} />}
    </>
  );
}
