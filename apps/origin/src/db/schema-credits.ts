import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Platform (v3) credits of the origin's organizations. The balance is one row per organization
 * (granted on first use from the account configuration) and changes only through one
 * conditional UPDATE, so it is exact under concurrency; every grant and charge is also a row of
 * the ledger, which the credit usage reports read.
 */
export const creditBalances = sqliteTable("credit_balances", {
  organizationId: text("organization_id").primaryKey(),
  balance: integer("balance").notNull(),
  initialBalance: integer("initial_balance").notNull(),
  /** Epoch ms of the grant. */
  createdAt: integer("created_at").notNull(),
});

export const creditTransactions = sqliteTable(
  "credit_transactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id").notNull(),
    /** The member who spent the credits; null for a grant. */
    userId: text("user_id"),
    /** The operation (core v3/credit-costs.ts), or `grant`. */
    operation: text("operation").notNull(),
    /** Credits added (positive) or consumed (negative). */
    amount: integer("amount").notNull(),
    /** Epoch ms. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("credit_transactions_org_time_idx").on(t.organizationId, t.createdAt)],
);
