/**
 * For tests only (imports vitest): a shared browser and env per test file, and the checks every
 * game's test runs.
 */
export { useBrowser } from './harness';
export { checkScriptedSteps, pixelSpread, presetIndices, probeActionMask, scriptedAndRandomScores, stateAfterKeys, type ActionMaskProbe } from './game-checks';
