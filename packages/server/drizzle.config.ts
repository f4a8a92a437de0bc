import { defineConfig } from 'drizzle-kit';

// One migration set for PGlite and PostgreSQL: both speak the same dialect, and
// src/db/database.ts applies this folder with the matching drizzle migrator at open.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
