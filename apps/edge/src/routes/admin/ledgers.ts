import { ledgerImportResultSchema } from "@scangate/core";
import { importLedgers } from "../../ledger/imports";
import { component } from "../../openapi/components";
import { defineAdminRoute } from "../../pipeline/define-route";

/**
 * Moves any balance still waiting in D1 (migration 0006) into its tenant's ledger object: the
 * start command calls it right after applying the migrations; the hourly cron does it too.
 * Idempotent: a balance moves once.
 */
export const importLedgersRoute = defineAdminRoute({
  method: "POST",
  path: "/admin/ledgers/import",
  summary: "Move balances the D1 ledger held into the tenants' ledger objects (after migration 0006)",
  ok: component("LedgerImportResult", ledgerImportResultSchema),
  handler: async (c) => c.json({ moved: await importLedgers(c.get("services")) }),
});
