-- The cloud key epoch each member private key is sealed under (issue 39): after a cloud-password
-- reset a device of the new epoch may replace a pair from an older one. Pairs published before
-- this migration count as epoch 0, so any reset lets them be replaced.
ALTER TABLE "user_public_keys" ADD COLUMN "key_epoch" integer DEFAULT 0 NOT NULL;