/**
 * Action masks as the envs hand them over: `info.actionMask` (Gymnasium's `action_mask`), one 0/1
 * entry per action, 1 where the action may change the game. A vector env's info for an
 * observation that starts an episode (autoreset) carries the mask in its `resetInfo`.
 */
type MaskInfo = { actionMask?: ArrayLike<number>; resetInfo?: { actionMask?: ArrayLike<number> } } | undefined;

/** The mask that goes with the observation this info came with, if the env gave one. */
export function actionMaskOf(info: unknown): ArrayLike<number> | undefined {
  const i = info as MaskInfo;
  return i?.resetInfo?.actionMask ?? i?.actionMask;
}

/**
 * Writes the masks of `infos` into `out` ([infos.length, numActions] of 0/1). An env that gave
 * none, or a mask with no allowed action (a finished game), allows every action: a mask only
 * ever narrows a choice that exists.
 */
export function writeActionMasks(infos: readonly unknown[], numActions: number, out: Float32Array): void {
  for (let e = 0; e < infos.length; e++) {
    const mask = actionMaskOf(infos[e]);
    const row = out.subarray(e * numActions, (e + 1) * numActions);
    if (mask && mask.length !== numActions) throw new Error(`env ${e}'s action mask has ${mask.length} entries, the policy has ${numActions} actions`);
    let allowed = 0;
    if (mask) {
      for (let j = 0; j < numActions; j++) {
        row[j] = mask[j] ? 1 : 0;
        allowed += row[j];
      }
    }
    if (allowed === 0) row.fill(1);
  }
}
