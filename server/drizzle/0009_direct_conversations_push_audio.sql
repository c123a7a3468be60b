CREATE TABLE "push_deliveries" (
	"event_key" text NOT NULL,
	"subscription_id" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_deliveries_event_key_subscription_id_pk" PRIMARY KEY("event_key","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "push_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"calls" boolean DEFAULT true NOT NULL,
	"pokes" boolean DEFAULT true NOT NULL,
	"transmissions" boolean DEFAULT true NOT NULL,
	"channel_adds" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transmission_audio" (
	"transmission_id" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_members" ADD COLUMN "notify" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "kind" text DEFAULT 'group' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "direct_key" text;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_preferences" ADD CONSTRAINT "push_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmission_audio" ADD CONSTRAINT "transmission_audio_transmission_id_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."transmissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_deliveries_sent" ON "push_deliveries" USING btree ("sent_at");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_direct_key_unique" UNIQUE("direct_key");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_kind" CHECK ("channels"."kind" in ('group', 'direct'));--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_direct_key" CHECK (("channels"."kind" = 'direct') = ("channels"."direct_key" is not null));