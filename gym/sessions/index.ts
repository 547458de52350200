export { SessionManager, type SessionManagerOptions, type SessionSpec, type ShutdownReport } from './session-manager';
export { Session, type SessionStatus } from './session';
export type { WatchEvent } from './session-watch';
