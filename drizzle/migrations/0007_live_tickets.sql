CREATE TABLE "live_episodes" (
	"ticket_id" text NOT NULL,
	"position" integer NOT NULL,
	"game_id" text NOT NULL,
	"record" jsonb NOT NULL,
	"cause" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_episodes_ticket_id_position_pk" PRIMARY KEY("ticket_id","position")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "mode" text DEFAULT 'seeds' NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "live" jsonb;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "live_episodes" ADD CONSTRAINT "live_episodes_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;