-- Agent names unique under a canonical form (issue 35): leaderboard/agent-names.ts computes it for
-- new names. Stored names are ASCII (the API never allowed other characters), so here the ASCII steps
-- suffice: lower case, the digits 0 and 1 read as "o" and "l", runs of separators as one "-", no
-- punctuation at either end. Nothing is lost: where earlier rows already share a form, the first
-- (a built-in baseline before any submitted agent, then the oldest) gets it, and each later one keeps
-- its name, runs and scores with "~<id>" after its form, so the name now resolves to the first.
ALTER TABLE "agents" ADD COLUMN "canonical_name" text;--> statement-breakpoint
UPDATE "agents" SET "canonical_name" = regexp_replace(
  regexp_replace(translate(lower("name"), '01', 'ol'), '[[:space:]._-]+', '-', 'g'),
  '^[^a-z0-9]+|[^a-z0-9]+$', '', 'g'
);--> statement-breakpoint
UPDATE "agents" AS a SET "canonical_name" = a."canonical_name" || '~' || a."id"
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "canonical_name" ORDER BY ("kind" = 'baseline') DESC, "id") AS "n" FROM "agents"
) AS ranked
WHERE ranked."id" = a."id" AND ranked."n" > 1;--> statement-breakpoint
ALTER TABLE "agents" ALTER COLUMN "canonical_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_canonical_name_unique" UNIQUE("canonical_name");
