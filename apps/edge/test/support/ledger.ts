import { env } from "cloudflare:workers";
import { testClock } from "./test-edge";

/**
 * What the tenant has used, as its ledger object holds it at `now` (the test edges' clock by
 * default), read the way the admin API reads it: with the terms its row holds.
 */
export async function ledgerUsed(tenantId: string, now = testClock().now()): Promise<number> {
  return (await ledgerReading(tenantId, now))?.quota.used ?? -1;
}

async function ledgerReading(tenantId: string, now: number) {
  const row = await env.DB.prepare("select allowance, period, updated_at from tenants where id = ?")
    .bind(tenantId)
    .first<{ allowance: number; period: "daily" | "monthly" | "never"; updated_at: number }>();
  if (!row) return null;
  const ledger = env.LEDGER.get(env.LEDGER.idFromName(tenantId));
  return ledger.read({
    terms: { allowance: row.allowance, period: row.period, version: row.updated_at },
    now,
  });
}

/** Credits the tenant's ledger object holds for calls in flight, at `now`. */
export async function ledgerHeld(tenantId: string, now = testClock().now()): Promise<number> {
  return (await ledgerReading(tenantId, now))?.held ?? -1;
}
