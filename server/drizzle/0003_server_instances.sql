CREATE TABLE "server_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"voice_provider" text NOT NULL,
	"voice_pinned" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
