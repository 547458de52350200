/**
 * The line a training run rewrites after every update. Its steps are the primitive env steps the
 * episodes record, the unit of the run's budget (`totalTimesteps`); under macro decisions the
 * trainer's own count is decisions, which are fewer, so those are shown beside them. The rate is
 * primitive steps per second since the previous update.
 */
export function trainingProgress(label: string, totalTimesteps: number, counted: { primitiveSteps: number }) {
  let last = { steps: counted.primitiveSteps, at: performance.now() };
  return (m: { update: number; globalStep: number; episodeReturnMean: number | null; failedResets?: number; failedResetCause?: string | null }) => {
    const steps = counted.primitiveSteps;
    const at = performance.now();
    const rate = (steps - last.steps) / Math.max(1e-3, (at - last.at) / 1000);
    last = { steps, at };
    const decisions = steps === m.globalStep ? '' : ` (${m.globalStep} decisions)`;
    const ret = m.episodeReturnMean === null ? 'n/a' : m.episodeReturnMean.toFixed(1);
    process.stderr.write(`\r${label}: update ${m.update}, ${steps}/${totalTimesteps} steps${decisions}, ${rate.toFixed(0)} steps/s, mean return ${ret}   `);
    // Envs that cannot reset train nothing and slow every step (each retries): say so on its own line, not in the rewritten one.
    if (m.failedResets)
      process.stderr.write(`\n${label}: ${m.failedResets} env steps of update ${m.update} lost to failed resets (${m.failedResetCause ?? 'no cause given'})\n`);
  };
}
