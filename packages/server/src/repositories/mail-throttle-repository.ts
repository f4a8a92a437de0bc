import { sql } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { mailThrottle } from '../db/schema.ts';

/** Each address's count of e-mails in its current hour, shared by every server process. */
export class MailThrottleRepository {
  constructor(private readonly db: DocketDb) {}

  /**
   * Counts one e-mail to `recipient` and tells whether it is within `maxPerHour`. One statement,
   * so concurrent requests for the same address each get their own count.
   */
  async take(recipient: string, maxPerHour: number): Promise<boolean> {
    const stale = sql`${mailThrottle.windowStart} <= now() - interval '1 hour'`;
    const [row] = await this.db
      .insert(mailThrottle)
      .values({ recipient: recipient.toLowerCase(), sent: 1 })
      .onConflictDoUpdate({
        target: mailThrottle.recipient,
        set: {
          windowStart: sql`case when ${stale} then now() else ${mailThrottle.windowStart} end`,
          sent: sql`case when ${stale} then 1 else ${mailThrottle.sent} + 1 end`,
        },
      })
      .returning({ sent: mailThrottle.sent });
    return (row?.sent ?? 1) <= maxPerHour;
  }
}
