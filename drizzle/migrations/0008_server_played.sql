ALTER TABLE "agent_game_stats" ADD COLUMN "server_played" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_suite_stats" ADD COLUMN "server_played" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Backfill (leaderboard/play-mode.ts): a cell is server-played when every ranked episode's ticket is live, a policy run or a baseline's.
UPDATE "agent_game_stats" s SET "server_played" = NOT EXISTS (
  SELECT 1 FROM "episodes" e LEFT JOIN "tickets" t ON t."id" = e."ticket_id"
  WHERE e."agent_id" = s."agent_id" AND e."game_id" = s."game_id" AND e."ranked"
    AND NOT COALESCE(t."mode" IN ('live', 'policy') OR t."purpose" = 'baseline', false)
);--> statement-breakpoint
-- A suite row is server-played when every cell of the agent on the suite's active games is.
UPDATE "agent_suite_stats" ss SET "server_played" = NOT EXISTS (
  SELECT 1 FROM "agent_game_stats" c JOIN "games" g ON g."id" = c."game_id"
  WHERE c."agent_id" = ss."agent_id" AND NOT c."server_played" AND g."active"
    AND (ss."suite" = 'all' OR g."suites" ? ss."suite")
);
