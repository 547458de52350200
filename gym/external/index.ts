/** Third-party games (`arcade-gym add-game`): registering one under games-external/, and its smoke check. */
export { AddGameInput, addExternalGame, settleAddGame, type AddGameResult } from './add-game';
export { smokeCheck, type SmokeCheckResult } from './smoke-check';
export { externalGameDir } from './paths';
