/**
 * Errors a user of the gym can act on. Each has a stable code (the HTTP API returns it) and
 * a message that names what was wrong.
 */
export type ArcadeErrorCode =
  | 'UNKNOWN_GAME'
  | 'INVALID_ACTION'
  | 'ACTION_OUT_OF_RANGE'
  | 'INVALID_OPTIONS'
  | 'RESET_NEEDED'
  | 'EPISODE_ENDED'
  | 'ENV_CLOSED'
  | 'BROWSER_NOT_FOUND'
  | 'STEP_TIMEOUT'
  | 'PAGE_CRASHED'
  | 'GAME_NOT_BUILT'
  | 'RUNTIME_MISSING'
  /** The game's verifier read a state without the fields every state has (score, gameOver): the verifier needs fixing. */
  | 'INVALID_VERIFIER_STATE'
  | 'MODEL_API_ERROR';

export class ArcadeGymError extends Error {
  constructor(
    readonly code: ArcadeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ArcadeGymError';
  }
}
