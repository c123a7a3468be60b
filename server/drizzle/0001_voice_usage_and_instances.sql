CREATE TABLE "server_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"voice_provider" text NOT NULL,
	"voice_pinned" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "voice_identity" text;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "voice_connection" text;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_sessions_voice_connection" ON "usage_sessions" USING btree ("voice_connection");