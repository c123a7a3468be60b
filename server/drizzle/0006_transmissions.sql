CREATE TABLE "transmissions" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"speaker_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"bytes" integer NOT NULL,
	"heard_by" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_members" ADD COLUMN "transmissions_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "keep_transmissions" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "transmissions" ADD CONSTRAINT "transmissions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmissions" ADD CONSTRAINT "transmissions_speaker_id_users_id_fk" FOREIGN KEY ("speaker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transmissions_channel_started" ON "transmissions" USING btree ("channel_id","started_at");--> statement-breakpoint
CREATE INDEX "transmissions_speaker" ON "transmissions" USING btree ("speaker_id");--> statement-breakpoint
CREATE INDEX "transmissions_started" ON "transmissions" USING btree ("started_at");