import { and, desc, eq } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { termsAcceptance } from '../db/schema.ts';

export interface TermsAcceptanceRecord {
  version: string;
  acceptedAt: Date;
}

/**
 * Terms acceptances, always of one user: every method takes the signed-in user's id, so no
 * caller can read or write another user's rows by passing the wrong thing.
 */
export class TermsRepository {
  constructor(private readonly db: DocketDb) {}

  /** The user's most recent acceptance of any version, or null if they never accepted. */
  async findLatest(userId: string): Promise<TermsAcceptanceRecord | null> {
    const [row] = await this.db
      .select({ version: termsAcceptance.version, acceptedAt: termsAcceptance.acceptedAt })
      .from(termsAcceptance)
      .where(eq(termsAcceptance.userId, userId))
      .orderBy(desc(termsAcceptance.acceptedAt), desc(termsAcceptance.version))
      .limit(1);
    return row ?? null;
  }

  /**
   * Records that the user accepted `version`. Accepting again keeps the first date: a retried
   * request must not move the moment the user actually agreed.
   */
  async accept(userId: string, version: string): Promise<TermsAcceptanceRecord> {
    await this.db
      .insert(termsAcceptance)
      .values({ userId, version })
      .onConflictDoNothing({ target: [termsAcceptance.userId, termsAcceptance.version] });
    const [row] = await this.db
      .select({ version: termsAcceptance.version, acceptedAt: termsAcceptance.acceptedAt })
      .from(termsAcceptance)
      .where(and(eq(termsAcceptance.userId, userId), eq(termsAcceptance.version, version)));
    if (row === undefined) throw new Error('Terms acceptance vanished after it was written');
    return row;
  }
}
