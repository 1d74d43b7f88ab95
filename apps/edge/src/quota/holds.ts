import { eq, lte } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { creditHolds } from "../db/schema";
import type { Charge, QuotaLedger } from "./ledger";

/** How long a hold waits for its call to settle before the maintenance cron releases it. */
export const CREDIT_HOLD_TTL_MS = 10 * 60 * 1000;

/**
 * Holds on the tenant's ledger for calls whose cost is known only after the answer. The charge
 * (the maximum) is made by the ledger first; the hold records it so an isolate that dies before
 * settling does not keep the credits forever. Settling and expiring both claim the row with one
 * DELETE ... RETURNING, so exactly one of them gives credits back.
 */
export class CreditHolds {
  constructor(
    private readonly db: EdgeDb,
    private readonly ledger: QuotaLedger,
  ) {}

  async open(charge: Charge, now: number): Promise<string> {
    const id = crypto.randomUUID();
    await this.db.insert(creditHolds).values({
      id,
      tenantId: charge.tenantId,
      credits: charge.cost,
      resetsAt: charge.quota.resetsAt,
      createdAt: now,
      expiresAt: now + CREDIT_HOLD_TTL_MS,
    });
    return id;
  }

  /**
   * Settles a hold to what the call spent, giving back the rest. False when the hold had
   * already expired (its credits were released, so nothing more is given back).
   */
  async settle(id: string, charge: Charge, spent: number): Promise<boolean> {
    const [row] = await this.db
      .delete(creditHolds)
      .where(eq(creditHolds.id, id))
      .returning({ id: creditHolds.id });
    if (!row) return false;
    const rest = charge.cost - spent;
    if (rest > 0) await this.ledger.refund({ ...charge, cost: rest });
    return true;
  }

  /** Releases every hold past its expiry; answers how many. */
  async expire(now: number): Promise<number> {
    const rows = await this.db.delete(creditHolds).where(lte(creditHolds.expiresAt, now)).returning();
    for (const row of rows) {
      await this.ledger.refund({
        tenantId: row.tenantId,
        cost: row.credits,
        quota: { used: 0, allowance: 0, resetsAt: row.resetsAt },
      });
    }
    return rows.length;
  }
}
