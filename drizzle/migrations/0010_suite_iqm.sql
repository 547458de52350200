-- Filled by refreshSuites (leaderboard/aggregates.ts), which the server runs when it syncs the games at start:
-- the bootstrap is not SQL, so earlier rows stay null until then.
ALTER TABLE "agent_suite_stats" ADD COLUMN "iqm" double precision;--> statement-breakpoint
ALTER TABLE "agent_suite_stats" ADD COLUMN "iqm_low" double precision;--> statement-breakpoint
ALTER TABLE "agent_suite_stats" ADD COLUMN "iqm_high" double precision;