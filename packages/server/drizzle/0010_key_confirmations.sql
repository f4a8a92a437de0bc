-- Each owner's record of the public key they confirmed for a member (issue 39), sealed under the
-- owner's cloud data key: a rotation checks the key listed then against it.
CREATE TABLE "workspace_key_confirmations" (
	"workspace_id" text NOT NULL,
	"member_user_id" text NOT NULL,
	"confirmed_by" text NOT NULL,
	"sealed" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_key_confirmations_workspace_id_member_user_id_confirmed_by_pk" PRIMARY KEY("workspace_id","member_user_id","confirmed_by")
);
--> statement-breakpoint
ALTER TABLE "workspace_key_confirmations" ADD CONSTRAINT "workspace_key_confirmations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_key_confirmations" ADD CONSTRAINT "workspace_key_confirmations_member_user_id_user_id_fk" FOREIGN KEY ("member_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_key_confirmations" ADD CONSTRAINT "workspace_key_confirmations_confirmed_by_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;