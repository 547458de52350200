CREATE TABLE "agent_game_stats" (
	"agent_id" integer NOT NULL,
	"game_id" text NOT NULL,
	"episodes" integer NOT NULL,
	"seeds" integer NOT NULL,
	"mean_score" double precision NOT NULL,
	"std_score" double precision NOT NULL,
	"best_score" double precision NOT NULL,
	"normalised" double precision,
	"ale_normalised" double precision,
	"replay_verified" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_game_stats_agent_id_game_id_pk" PRIMARY KEY("agent_id","game_id")
);
--> statement-breakpoint
CREATE TABLE "agent_suite_stats" (
	"agent_id" integer NOT NULL,
	"suite" text NOT NULL,
	"games_counted" integer NOT NULL,
	"suite_games" integer NOT NULL,
	"complete" boolean NOT NULL,
	"mean_normalised" double precision,
	"mean_ale_normalised" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_suite_stats_agent_id_suite_pk" PRIMARY KEY("agent_id","suite")
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"token_id" integer,
	"settings" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "episode_records" (
	"episode_id" integer PRIMARY KEY NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "episodes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "episodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"agent_id" integer NOT NULL,
	"game_id" text NOT NULL,
	"game_version" text NOT NULL,
	"verifier_checksum" text NOT NULL,
	"seed" bigint NOT NULL,
	"score" double precision NOT NULL,
	"length" integer NOT NULL,
	"terminated" boolean NOT NULL,
	"truncated" boolean NOT NULL,
	"step_budget" integer NOT NULL,
	"ms_per_step" double precision NOT NULL,
	"ranked" boolean NOT NULL,
	"verification" text NOT NULL,
	"verification_reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "game_references" (
	"game_id" text NOT NULL,
	"kind" text NOT NULL,
	"score" double precision NOT NULL,
	"status" text NOT NULL,
	"provenance" text NOT NULL,
	"step_budget" integer NOT NULL,
	"episodes" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_references_game_id_kind_pk" PRIMARY KEY("game_id","kind")
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"version" text NOT NULL,
	"verifier_checksum" text NOT NULL,
	"step_budget" integer NOT NULL,
	"ms_per_step" double precision NOT NULL,
	"suites" jsonb NOT NULL,
	"manifest_human_reference" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "human_episodes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "human_episodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"game_id" text NOT NULL,
	"player" text NOT NULL,
	"game_version" text NOT NULL,
	"seed" bigint NOT NULL,
	"score" double precision NOT NULL,
	"length" integer NOT NULL,
	"step_budget" integer NOT NULL,
	"ms_per_step" double precision NOT NULL,
	"verification" text NOT NULL,
	"verification_reason" text NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"token_id" integer,
	"agent_id" integer,
	"player" text,
	"kind" text NOT NULL,
	"observation" jsonb NOT NULL,
	"action_space" text NOT NULL,
	"step_budget" integer,
	"ms_per_step" double precision,
	"official" boolean NOT NULL,
	"harness" text,
	"model" text,
	"code_version" text,
	"game_ids" jsonb NOT NULL,
	"learning_curve" jsonb,
	"body_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"episode_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runs_token_client_id" UNIQUE NULLS NOT DISTINCT("token_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "agent_game_stats" ADD CONSTRAINT "agent_game_stats_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_game_stats" ADD CONSTRAINT "agent_game_stats_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_suite_stats" ADD CONSTRAINT "agent_suite_stats_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "episode_records" ADD CONSTRAINT "episode_records_episode_id_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_references" ADD CONSTRAINT "game_references_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD CONSTRAINT "human_episodes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_episodes" ADD CONSTRAINT "human_episodes_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_game_stats_game_idx" ON "agent_game_stats" USING btree ("game_id","normalised");--> statement-breakpoint
CREATE INDEX "agent_suite_stats_rank_idx" ON "agent_suite_stats" USING btree ("suite","complete","mean_normalised");--> statement-breakpoint
CREATE INDEX "episodes_agent_game_idx" ON "episodes" USING btree ("agent_id","game_id");--> statement-breakpoint
CREATE INDEX "episodes_game_score_idx" ON "episodes" USING btree ("game_id","score" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "episodes_run_idx" ON "episodes" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "human_episodes_game_idx" ON "human_episodes" USING btree ("game_id","step_budget");--> statement-breakpoint
CREATE INDEX "runs_agent_idx" ON "runs" USING btree ("agent_id","created_at");