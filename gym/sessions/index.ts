export { SessionManager, type SessionManagerOptions, type SessionSpec, type VectorSessionSpec, type ShutdownReport } from './session-manager';
export { Session, type SessionStatus } from './session';
export { VectorSession, type VectorSessionStatus, type IndexedOutcome } from './vector-session';
export type { WatchEvent } from './session-watch';
