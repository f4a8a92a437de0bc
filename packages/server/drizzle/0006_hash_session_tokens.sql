-- Session tokens are kept as their SHA-256 in hex (src/auth/hashed-session-tokens.ts). Those
-- stored before are hashed in place, so sessions open at the upgrade stay open.
UPDATE "session" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex') WHERE "token" !~ '^[0-9a-f]{64}$';
--> statement-breakpoint
-- better-auth keeps reset and verification identifiers hashed (storeIdentifier: 'hashed');
-- a hash (base64url) never holds ':', a plain identifier ("reset-password:<token>") always does.
-- Those are dropped: a reset link sent before the upgrade must be asked for again.
DELETE FROM "verification" WHERE "identifier" LIKE '%:%';
