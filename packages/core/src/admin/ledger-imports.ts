import { z } from "zod";

/** The answer of POST /admin/ledgers/import. */
export const ledgerImportResultSchema = z.object({
  /** Tenants whose balance moved from D1 into their ledger object by this call. */
  moved: z.number().int().min(0),
});
export type LedgerImportResult = z.infer<typeof ledgerImportResultSchema>;
