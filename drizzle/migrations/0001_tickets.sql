CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_id" integer,
	"client_id" text NOT NULL,
	"body_hash" text NOT NULL,
	"ticket_id" text,
	"status" text NOT NULL,
	"body" jsonb,
	"episodes" integer NOT NULL,
	"steps" integer NOT NULL,
	"verified" integer DEFAULT 0 NOT NULL,
	"budget_ms" integer NOT NULL,
	"run_id" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "submissions_token_client_id" UNIQUE NULLS NOT DISTINCT("token_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_seeds" (
	"game_id" text NOT NULL,
	"seed" bigint NOT NULL,
	"ticket_id" text NOT NULL,
	CONSTRAINT "ticket_seeds_game_id_seed_pk" PRIMARY KEY("game_id","seed")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"token_id" integer,
	"purpose" text NOT NULL,
	"scope" text NOT NULL,
	"games" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"submission_id" text,
	"used_at" timestamp with time zone,
	CONSTRAINT "tickets_submission_id_unique" UNIQUE("submission_id")
);
--> statement-breakpoint
ALTER TABLE "agent_game_stats" ADD COLUMN "ticketed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "ticket_id" text;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "eligible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "unranked_reason" text;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "replay" jsonb;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "claimed" jsonb;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "ticket_id" text;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "ranked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "unranked_reason" text;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "replay" jsonb;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD COLUMN "claimed" jsonb;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "ticket_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "unranked_reason" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_seeds" ADD CONSTRAINT "ticket_seeds_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_status_idx" ON "submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "tickets_token_idx" ON "tickets" USING btree ("token_id","created_at");--> statement-breakpoint
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD CONSTRAINT "human_episodes_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;