import type { Clock } from "@scangate/core/http";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EdgeDb } from "../db/client";
import { ledgerImports, tenants } from "../db/schema";
import { termsOf } from "./balances";
import type { Ledgers } from "./ledgers";

// The move of balances from the D1 ledger into the tenants' ledger objects. Migration 0006 kept
// what D1 held in `ledger_imports`; each row is handed to its tenant's object (which adds it
// once, keyed by the import id) and then deleted. `pnpm start` runs this right after applying
// the migrations (POST /admin/ledgers/import), and the hourly cron runs it too, so a deployment
// that skipped the call still moves every balance within the hour.

const importedHolds = z.array(
  z
    .object({
      id: z.string(),
      credits: z.number().int(),
      resets_at: z.number().int().nullable(),
      expires_at: z.number().int(),
    })
    .transform((h) => ({ id: h.id, credits: h.credits, resetsAt: h.resets_at, expiresAt: h.expires_at })),
);

/** Hands every balance still waiting in D1 to its tenant's object; how many moved. */
export async function importLedgers(deps: { db: EdgeDb; ledgers: Ledgers; clock: Clock }): Promise<number> {
  const rows = await deps.db
    .select({ imported: ledgerImports, tenant: tenants })
    .from(ledgerImports)
    .innerJoin(tenants, eq(tenants.id, ledgerImports.tenantId));
  let moved = 0;
  for (const { imported, tenant } of rows) {
    const holds = importedHolds.safeParse(JSON.parse(imported.holds));
    await deps.ledgers(tenant.id).absorb({
      terms: termsOf(tenant),
      now: deps.clock.now(),
      importId: `d1:${tenant.id}`,
      balance: {
        used: imported.used,
        resetsAt: imported.resetsAt,
        holds: holds.success ? holds.data : [],
      },
    });
    await deps.db.delete(ledgerImports).where(eq(ledgerImports.tenantId, tenant.id));
    moved += 1;
  }
  return moved;
}
