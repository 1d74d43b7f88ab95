import type { Tenant } from "@scangate/core";
import { asc, eq, sql } from "drizzle-orm";
import { hashSecret, newApiId, newApiSecret, newRecordId } from "../auth/secrets";
import type { Clock } from "@scangate/core/http";
import type { EdgeDb } from "../db/client";
import { tenants, type TenantRow } from "../db/schema";
import type { QuotaState } from "./periods";

type NewTenant = Pick<TenantRow, "name" | "email" | "allowance" | "period" | "tier">;

type TenantChanges = Partial<NewTenant & Pick<TenantRow, "disabled" | "jobMaxPages">>;

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The admin API's view of a tenant, with its quota from its ledger: never the secret or its hash. */
export function tenantToWire(row: TenantRow, quota: QuotaState, now: number): Tenant {
  const graceOpen = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    api_id: row.apiId,
    allowance: row.allowance,
    period: row.period,
    used: quota.used,
    resets_at: iso(quota.resetsAt),
    tier: row.tier,
    disabled: row.disabled,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
    last_seen_at: iso(row.lastSeenAt),
    previous_secret_expires_at: graceOpen ? iso(row.previousSecretExpiresAt) : null,
    job_max_pages: row.jobMaxPages,
  };
}

/** A newer updated_at than the row's is what makes the tenant's ledger take the new allowance and period. */
const nextUpdatedAt = (now: number) => sql<number>`max(${now}, ${tenants.updatedAt} + 1)`;

/** Tenant records in D1. The secret exists in clear only in the return value of create/rotate. */
export class TenantStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  async create(input: NewTenant): Promise<{ row: TenantRow; secret: string }> {
    const now = this.clock.now();
    const secret = newApiSecret();
    const [row] = await this.db
      .insert(tenants)
      .values({
        ...input,
        id: newRecordId("tnt"),
        apiId: newApiId(),
        secretHash: await hashSecret(secret),
        disabled: false,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("tenant insert returned no row");
    return { row, secret };
  }

  list(): Promise<TenantRow[]> {
    return this.db.select().from(tenants).orderBy(asc(tenants.createdAt), asc(tenants.id));
  }

  async get(id: string): Promise<TenantRow | null> {
    return (await this.db.select().from(tenants).where(eq(tenants.id, id)).get()) ?? null;
  }

  async getByApiId(apiId: string): Promise<TenantRow | null> {
    return (await this.db.select().from(tenants).where(eq(tenants.apiId, apiId)).get()) ?? null;
  }

  async update(id: string, changes: TenantChanges): Promise<TenantRow | null> {
    const [row] = await this.db
      .update(tenants)
      .set({ ...changes, updatedAt: nextUpdatedAt(this.clock.now()) })
      .where(eq(tenants.id, id))
      .returning();
    return row ?? null;
  }

  /** A new secret; the old one keeps working for `graceSeconds` (0: stops at once). */
  async rotate(id: string, graceSeconds: number): Promise<{ row: TenantRow; secret: string } | null> {
    const now = this.clock.now();
    const secret = newApiSecret();
    const [row] = await this.db
      .update(tenants)
      .set({
        secretHash: await hashSecret(secret),
        // An UPDATE's expressions read the row as it was: this keeps the old secret's hash.
        previousSecretHash: graceSeconds > 0 ? sql`${tenants.secretHash}` : null,
        previousSecretExpiresAt: graceSeconds > 0 ? now + graceSeconds * 1000 : null,
        updatedAt: nextUpdatedAt(now),
      })
      .where(eq(tenants.id, id))
      .returning();
    return row ? { row, secret } : null;
  }

  async remove(id: string): Promise<TenantRow | null> {
    const [row] = await this.db.delete(tenants).where(eq(tenants.id, id)).returning();
    return row ?? null;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.update(tenants).set({ lastSeenAt: at }).where(eq(tenants.id, id));
  }
}
