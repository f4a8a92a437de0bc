-- Team workspaces (issue 39): member key pairs, workspaces with their log head, members and
-- invitations, each member's sealed copies of the workspace key, and each workspace's change log.
CREATE TABLE "user_public_keys" (
	"user_id" text PRIMARY KEY NOT NULL,
	"public_key" "bytea" NOT NULL,
	"wrapped_private_key" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_changes" (
	"workspace_id" text NOT NULL,
	"seqno" bigint NOT NULL,
	"change_id" text NOT NULL,
	"device_id" text NOT NULL,
	"client_batch_id" text NOT NULL,
	"batch_index" integer NOT NULL,
	"epoch" integer NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	"pushed_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_changes_workspace_id_seqno_pk" PRIMARY KEY("workspace_id","seqno"),
	CONSTRAINT "workspace_changes_batch_unique" UNIQUE("workspace_id","client_batch_id","batch_index")
);
--> statement-breakpoint
CREATE TABLE "workspace_member_keys" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"key_version" integer NOT NULL,
	"sealed_key" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_member_keys_workspace_id_user_id_key_version_pk" PRIMARY KEY("workspace_id","user_id","key_version")
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"role" text NOT NULL,
	"status" text NOT NULL,
	"invited_by" text,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_email_pk" PRIMARY KEY("workspace_id","email"),
	CONSTRAINT "workspace_members_user_unique" UNIQUE("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_check" CHECK ("workspace_members"."role" in ('owner', 'editor', 'viewer')),
	CONSTRAINT "workspace_members_status_check" CHECK ("workspace_members"."status" in ('invited', 'accepted', 'confirmed'))
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed_name" "bytea" NOT NULL,
	"key_version" integer DEFAULT 1 NOT NULL,
	"rotation_due" boolean DEFAULT false NOT NULL,
	"last_seqno" bigint DEFAULT 0 NOT NULL,
	"log_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_public_keys" ADD CONSTRAINT "user_public_keys_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_changes" ADD CONSTRAINT "workspace_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_member_keys" ADD CONSTRAINT "workspace_member_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_member_keys" ADD CONSTRAINT "workspace_member_keys_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_invited_by_user_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workspace_members_email_idx" ON "workspace_members" USING btree ("email");