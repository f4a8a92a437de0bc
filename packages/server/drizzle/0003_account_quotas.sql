ALTER TABLE "sync_log_head" ADD COLUMN "log_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Logs written before the quota: count what they hold once, here.
UPDATE "sync_log_head" SET "log_bytes" = (SELECT coalesce(sum(octet_length("ciphertext")), 0) FROM "sync_changes" WHERE "sync_changes"."user_id" = "sync_log_head"."user_id");
