/**
 * For tests only (imports vitest): a shared browser and env per test file, the checks every
 * game's test runs, and an env whose resets fail.
 */
export { useBrowser } from './harness';
export { failingReset, pageErrorOnReset } from './failing-reset';
export { checkScriptedSteps, pixelSpread, presetIndices, probeActionMask, scriptedAndRandomScores, stateAfterKeys, type ActionMaskProbe } from './game-checks';
