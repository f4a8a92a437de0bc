CREATE TABLE "backups" (
	"user_id" text NOT NULL,
	"id" text NOT NULL,
	"epoch" integer NOT NULL,
	"metadata" "bytea" NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backups_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
CREATE TABLE "public_links" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"backup_id" text NOT NULL,
	"ciphertext" "bytea",
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"view_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_links" ADD CONSTRAINT "public_links_backup_fk" FOREIGN KEY ("user_id","backup_id") REFERENCES "public"."backups"("user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "public_links_backup_idx" ON "public_links" USING btree ("user_id","backup_id");