-- Evaluation tickets (issue 12): only runs on a server-issued ticket are ranked. Everything stored
-- before is self-seeded, and the early baselines were never replayed: all of it stays, unranked,
-- with the reason. The aggregates over ranked episodes are then empty, and the references go back
-- to the manifests' provisional values (their inputs, verified human play and the random baseline,
-- are unranked too).
UPDATE "episodes" SET "eligible" = false, "ranked" = false, "unranked_reason" = CASE
  WHEN "verification" = 'server-run' THEN 'Stored before the server replayed every entry: recorded by the server''s own gym, never re-simulated, and self-seeded (no evaluation ticket).'
  ELSE 'Self-seeded: submitted before evaluation tickets existed, so the submitter chose the seeds.'
END;--> statement-breakpoint
UPDATE "human_episodes" SET "ranked" = false, "unranked_reason" = 'Self-seeded: submitted before evaluation tickets existed, so the player chose the seed.';--> statement-breakpoint
UPDATE "runs" SET "unranked_reason" = 'Self-seeded: stored before evaluation tickets existed, so its seeds were not drawn by the server.';--> statement-breakpoint
DELETE FROM "agent_suite_stats";--> statement-breakpoint
DELETE FROM "agent_game_stats";--> statement-breakpoint
DELETE FROM "game_references" WHERE "kind" = 'random';--> statement-breakpoint
UPDATE "game_references" AS r SET
  "score" = (g."manifest_human_reference"->>'score')::double precision,
  "status" = 'provisional',
  "provenance" = g."manifest_human_reference"->>'provenance',
  "step_budget" = (g."manifest_human_reference"->>'stepBudget')::integer,
  "episodes" = 0,
  "updated_at" = now()
FROM "games" AS g WHERE g."id" = r."game_id" AND r."kind" = 'human';--> statement-breakpoint
-- Retries of runs accepted before submissions had their own table are still answered from the stored answer.
INSERT INTO "submissions" ("id", "token_id", "client_id", "body_hash", "status", "episodes", "steps", "verified", "budget_ms", "run_id", "result", "created_at", "finished_at")
SELECT gen_random_uuid()::text, "token_id", "client_id", "body_hash", 'accepted', "episode_count", 0, "episode_count", 0, "id", "response", "created_at", "created_at" FROM "runs";
