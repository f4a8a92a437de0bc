import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { serverSecret } from '../db/schema.ts';

export class ServerSecretRepository {
  constructor(private readonly db: DocketDb) {}

  /**
   * Returns the secret stored under `name`, creating a random one the first time. Insert-or-keep
   * then read, so processes starting at the same moment all end up with the first one written.
   */
  async getOrCreate(name: string): Promise<string> {
    await this.db
      .insert(serverSecret)
      .values({ name, value: randomBytes(32).toString('base64url') })
      .onConflictDoNothing({ target: serverSecret.name });
    const [row] = await this.db
      .select({ value: serverSecret.value })
      .from(serverSecret)
      .where(eq(serverSecret.name, name));
    if (row === undefined) throw new Error(`Server secret "${name}" vanished after it was written`);
    return row.value;
  }
}
