ALTER TABLE "usage_sessions" ADD COLUMN "voice_identity" text;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "voice_connection" text;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_sessions_voice_connection" ON "usage_sessions" USING btree ("voice_connection");