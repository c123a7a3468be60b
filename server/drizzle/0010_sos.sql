CREATE TABLE "sos_acks" (
	"alert_id" text NOT NULL,
	"user_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sos_acks_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sos_alerts" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"channel_id" integer NOT NULL,
	"sender_id" text NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"talk_until" timestamp with time zone NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"accuracy" double precision,
	"located_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "sos" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "sos_seconds" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "transmissions" ADD COLUMN "sos_alert_id" text;--> statement-breakpoint
ALTER TABLE "sos_acks" ADD CONSTRAINT "sos_acks_alert_id_sos_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."sos_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_acks" ADD CONSTRAINT "sos_acks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sos_acks_user" ON "sos_acks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sos_alerts_channel_raised" ON "sos_alerts" USING btree ("channel_id","raised_at");--> statement-breakpoint
CREATE INDEX "sos_alerts_sender" ON "sos_alerts" USING btree ("sender_id");--> statement-breakpoint
ALTER TABLE "transmissions" ADD CONSTRAINT "transmissions_sos_alert_id_sos_alerts_id_fk" FOREIGN KEY ("sos_alert_id") REFERENCES "public"."sos_alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transmissions_sos_alert" ON "transmissions" USING btree ("sos_alert_id");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_sos_seconds_range" CHECK ("channels"."sos_seconds" between 5 and 30);