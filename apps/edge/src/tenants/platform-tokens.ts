import type { PlatformTokenStatus, PlatformTokenWithSecret } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { hashSecret, newPlatformToken, newRecordId } from "../auth/secrets";
import type { EdgeDb } from "../db/client";
import { platformTokens, type PlatformTokenRow, tenants, type TenantRow } from "../db/schema";
import { iso } from "./store";

/** The admin API's view of a tenant's tokens at `now`: ids and times, never a token or hash. */
function platformTokenStatus(
  tenantId: string,
  rows: readonly PlatformTokenRow[],
  now: number,
): PlatformTokenStatus {
  const current = rows.find((row) => row.expiresAt === null);
  const previous = rows.find((row) => row.expiresAt !== null && row.expiresAt > now);
  return {
    tenant_id: tenantId,
    token_id: current?.id ?? null,
    issued_at: iso(current?.createdAt ?? null),
    previous_token_expires_at: iso(previous?.expiresAt ?? null),
  };
}

export interface IssuedToken {
  /** The token in clear: exists only in this return value. */
  readonly token: string;
  /** Whether a current token was replaced (a rotation) rather than a first issue. */
  readonly rotated: boolean;
  /** The tenant's tokens after the issue, the new one current. */
  readonly status: Omit<PlatformTokenWithSecret, "token">;
}

/** A token row with its tenant, as the bearer check reads it. */
export interface TokenHolder {
  readonly tenant: TenantRow;
  /** Null while current; else the end of the token's grace period. */
  readonly expiresAt: number | null;
}

/** Tenants' Platform tokens in D1. A token exists in clear only in the return value of `issue`. */
export class PlatformTokenStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a new current token for the tenant. A token it replaces keeps working for
   * `graceSeconds` (0: stops at once); one still in an earlier grace period stops now. One
   * D1 batch (a transaction), so concurrent issues still leave one current token.
   */
  async issue(tenantId: string, graceSeconds: number): Promise<IssuedToken> {
    const now = this.clock.now();
    const token = newPlatformToken();
    const ofTenant = eq(platformTokens.tenantId, tenantId);
    const current = and(ofTenant, isNull(platformTokens.expiresAt));
    const replaced =
      graceSeconds > 0
        ? this.db
            .update(platformTokens)
            .set({ expiresAt: now + graceSeconds * 1000 })
            .where(current)
            .returning()
        : this.db.delete(platformTokens).where(current).returning();
    const [, replacedRows, inserted] = await this.db.batch([
      this.db.delete(platformTokens).where(and(ofTenant, isNotNull(platformTokens.expiresAt))),
      replaced,
      this.db
        .insert(platformTokens)
        .values({
          id: newRecordId("ptk"),
          tenantId,
          tokenHash: await hashSecret(token),
          createdAt: now,
          expiresAt: null,
        })
        .returning(),
    ]);
    const row = inserted[0];
    if (!row) throw new Error("platform token insert returned no row");
    const kept = graceSeconds > 0 ? replacedRows : [];
    const status = platformTokenStatus(tenantId, [row, ...kept], now);
    const issuedAt = new Date(row.createdAt).toISOString();
    return {
      token,
      rotated: replacedRows.length > 0,
      status: { ...status, token_id: row.id, issued_at: issuedAt },
    };
  }

  async status(tenantId: string): Promise<PlatformTokenStatus> {
    const rows = await this.db.select().from(platformTokens).where(eq(platformTokens.tenantId, tenantId));
    return platformTokenStatus(tenantId, rows, this.clock.now());
  }

  /** Every token of the tenant stops working: the current one and any in its grace period. */
  async revoke(tenantId: string): Promise<number> {
    const removed = await this.db
      .delete(platformTokens)
      .where(eq(platformTokens.tenantId, tenantId))
      .returning({ id: platformTokens.id });
    return removed.length;
  }

  /** The tenant holding the token with this hash (expired or not: the caller checks the time). */
  async holderOf(tokenHash: string): Promise<TokenHolder | null> {
    const found = await this.db
      .select({ tenant: tenants, expiresAt: platformTokens.expiresAt })
      .from(platformTokens)
      .innerJoin(tenants, eq(tenants.id, platformTokens.tenantId))
      .where(eq(platformTokens.tokenHash, tokenHash))
      .get();
    return found ?? null;
  }
}
