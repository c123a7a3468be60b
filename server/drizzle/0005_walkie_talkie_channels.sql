ALTER TABLE "channels" ADD COLUMN "talk_mode" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "max_transmission_seconds" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_talk_mode" CHECK ("channels"."talk_mode" in ('open', 'walkie'));--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_max_transmission_range" CHECK ("channels"."max_transmission_seconds" between 5 and 300);