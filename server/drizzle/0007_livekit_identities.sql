CREATE TABLE "livekit_identities" (
	"identity" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"channel_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "livekit_identities" ADD CONSTRAINT "livekit_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "livekit_identities" ADD CONSTRAINT "livekit_identities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "livekit_identities" ADD CONSTRAINT "livekit_identities_session_id_sessions_id_hash_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "livekit_identities_session" ON "livekit_identities" USING btree ("session_id");