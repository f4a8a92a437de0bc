-- Failed sign-ins are counted per (address typed, client address) from now on (issue 42): the
-- table is made anew; the counts it held (at most a few minutes of delays) are forgotten.
DROP TABLE "sign_in_failures";--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"email" text NOT NULL,
	"client_address" text DEFAULT '' NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_failures_email_client_address_pk" PRIMARY KEY("email","client_address")
);
