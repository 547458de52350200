CREATE TABLE "human_players" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "human_players_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"canonical_name" text NOT NULL,
	"key_hash" text,
	"status" text DEFAULT 'candidate' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "human_players_canonical_name_unique" UNIQUE("canonical_name")
);
--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "player_id" integer;--> statement-breakpoint
-- Every earlier human episode came from an admin token, so its player is accepted. Names are ASCII
-- (the API allowed nothing else), so 0005's ASCII steps give their canonical form; look-alike names
-- become one player, named by the earliest episode's spelling.
INSERT INTO "human_players" ("name", "canonical_name", "status", "decided_at")
SELECT DISTINCT ON (c."canonical") c."player", c."canonical", 'accepted', now()
FROM (
  SELECT "player", "id", regexp_replace(
    regexp_replace(translate(lower("player"), '01', 'ol'), '[[:space:]._-]+', '-', 'g'),
    '^[^a-z0-9]+|[^a-z0-9]+$', '', 'g'
  ) AS "canonical" FROM "human_episodes"
) AS c
ORDER BY c."canonical", c."id";--> statement-breakpoint
UPDATE "human_episodes" AS e SET "player_id" = p."id" FROM "human_players" AS p
WHERE p."canonical_name" = regexp_replace(
  regexp_replace(translate(lower(e."player"), '01', 'ol'), '[[:space:]._-]+', '-', 'g'),
  '^[^a-z0-9]+|[^a-z0-9]+$', '', 'g'
);--> statement-breakpoint
ALTER TABLE "human_episodes" ALTER COLUMN "player_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD CONSTRAINT "human_episodes_player_id_human_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."human_players"("id") ON DELETE no action ON UPDATE no action;