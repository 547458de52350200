import type { PageStepResult } from '../runtime/protocol';

/**
 * An info with the page reading's action mask, where the reading has one (games whose verifier
 * defines `actionMask`): the single env, the batched vector env and the in-page trainer's frames
 * all pass it on this way, as `info.actionMask`.
 */
export function withActionMask<I extends object>(info: I, r: Pick<PageStepResult, 'actionMask'>): I & { actionMask?: number[] } {
  return r.actionMask ? { ...info, actionMask: r.actionMask } : info;
}
