import type { Env, ResetFailure, ResetOptions } from '../core';

/**
 * `env` as a page that sometimes cannot reset: its reset throws "no page" whenever `fails` says
 * so (it is asked before every reset), and otherwise resets as `env` does.
 */
export function failingReset<Obs, Act>(env: Env<Obs, Act>, fails: (options?: ResetOptions) => boolean): Env<Obs, Act> {
  return {
    ...env,
    reset: (options) => {
      if (fails(options)) throw new Error('no page');
      return env.reset(options);
    },
  };
}

/** What a vector env's `resetFailure` option makes of such a failure: a page error, tolerated. */
export const pageErrorOnReset = (e: unknown): ResetFailure => ({ code: 'PAGE_ERROR', message: String(e) });
