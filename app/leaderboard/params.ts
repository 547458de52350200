import { SORT_KEYS, type SortKey } from '../../leaderboard/queries';
import { VIEWS, type View } from './leaderboard-view';

export type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Query parameters are untrusted input: anything unknown falls back to the default. */
export function parseLeaderboardParams(q: Record<string, string | string[] | undefined>) {
  const sort = one(q.sort);
  const view = one(q.view);
  const page = Number(one(q.page));
  return {
    suite: one(q.suite),
    sort: sort && ((SORT_KEYS as readonly string[]).includes(sort) || /^game:[a-z0-9-]+$/.test(sort)) ? (sort as SortKey) : undefined,
    dir: one(q.dir) === 'asc' ? ('asc' as const) : one(q.dir) === 'desc' ? ('desc' as const) : undefined,
    page: Number.isInteger(page) && page > 0 && page < 1e6 ? page : 1,
    view: (VIEWS as readonly string[]).includes(view ?? '') ? (view as View) : 'normalised',
    play: one(q.play) === 'any' ? ('any' as const) : ('server' as const),
  };
}
