CREATE TABLE "member_volumes" (
	"listener_id" text NOT NULL,
	"member_id" text NOT NULL,
	"volume" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_volumes_listener_id_member_id_pk" PRIMARY KEY("listener_id","member_id"),
	CONSTRAINT "member_volumes_volume_range" CHECK ("member_volumes"."volume" between 0 and 200)
);
--> statement-breakpoint
CREATE TABLE "voice_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"roger_beep" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_volumes" ADD CONSTRAINT "member_volumes_listener_id_users_id_fk" FOREIGN KEY ("listener_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_volumes" ADD CONSTRAINT "member_volumes_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_preferences" ADD CONSTRAINT "voice_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_volumes_member" ON "member_volumes" USING btree ("member_id");