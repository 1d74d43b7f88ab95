import type { TenantRow } from "../db/schema";
import type { EdgeServices } from "../services";
import type { QuotaState } from "../tenants/periods";
import type { LedgerTerms } from "./balance";

// Reading tenants' balances from their ledger objects, for the admin API, the console and the
// dashboards: every figure of `used` anyone sees comes from the object that keeps it.

/** What a tenant row says the tenant may spend (its ledger takes newer versions of it). */
export function termsOf(row: TenantRow): LedgerTerms {
  return { allowance: row.allowance, period: row.period, version: row.updatedAt };
}

type BalanceDeps = Pick<EdgeServices, "ledgers" | "clock">;

/** The tenant's quota now, from its ledger. */
export async function balanceOf(deps: BalanceDeps, row: TenantRow): Promise<QuotaState> {
  const reading = await deps.ledgers(row.id).read({ terms: termsOf(row), now: deps.clock.now() });
  return reading.quota;
}

/** Objects asked at once when reading many tenants' balances. */
const PARALLEL_READS = 32;

/** Every tenant's quota now, by tenant id (their ledgers read a few dozen at a time). */
export async function balancesOf(
  deps: BalanceDeps,
  rows: readonly TenantRow[],
): Promise<Map<string, QuotaState>> {
  const balances = new Map<string, QuotaState>();
  for (let start = 0; start < rows.length; start += PARALLEL_READS) {
    const slice = rows.slice(start, start + PARALLEL_READS);
    await Promise.all(slice.map(async (row) => balances.set(row.id, await balanceOf(deps, row))));
  }
  return balances;
}
