CREATE TABLE "sync_blobs" (
	"user_id" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_blobs_user_id_sha256_pk" PRIMARY KEY("user_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "sync_changes" (
	"user_id" text NOT NULL,
	"seqno" bigint NOT NULL,
	"change_id" text NOT NULL,
	"device_id" text NOT NULL,
	"client_batch_id" text NOT NULL,
	"batch_index" integer NOT NULL,
	"epoch" integer NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_changes_user_id_seqno_pk" PRIMARY KEY("user_id","seqno"),
	CONSTRAINT "sync_changes_batch_unique" UNIQUE("user_id","client_batch_id","batch_index")
);
--> statement-breakpoint
CREATE TABLE "sync_log_head" (
	"user_id" text PRIMARY KEY NOT NULL,
	"last_seqno" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sync_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"password_hash" text,
	"key_derivation" jsonb,
	"wrapped_data_key" text,
	"key_epoch" integer DEFAULT 0 NOT NULL,
	"epoch_start_seqno" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_blobs" ADD CONSTRAINT "sync_blobs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_changes" ADD CONSTRAINT "sync_changes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_log_head" ADD CONSTRAINT "sync_log_head_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sync_settings" ADD CONSTRAINT "user_sync_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;