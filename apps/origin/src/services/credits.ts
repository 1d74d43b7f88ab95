/**
 * The credit ledger of the Platform (v3) API, in D1 (tables in db/schema-credits.ts).
 * Exact under concurrency as the legacy quota is: a charge is one conditional
 * `UPDATE ... WHERE balance >= cost`, and the ledger row is written in the same batch (one
 * transaction) only when that update changed the balance.
 */

export interface CreditAccount {
  organizationId: string;
  /** Credits granted when the organization is first seen. */
  initialCredits: number;
}

export type CreditCharge = { ok: true; balance: number } | { ok: false; balance: number };

export interface CreditBalance {
  balance: number;
  initialBalance: number;
  /** Epoch ms of the grant. */
  createdAt: number;
}

export interface CreditTransaction {
  userId: string | null;
  operation: string;
  amount: number;
  createdAt: number;
}

export interface CreditLedger {
  /** The organization's balance (granting its initial credits on first use). */
  balance(account: CreditAccount, nowMs: number): Promise<CreditBalance>;
  /**
   * Takes `amount` credits for `operation` by `userId`; refuses, changing nothing, when the
   * balance is smaller. An amount of 0 records nothing.
   */
  charge(
    account: CreditAccount,
    userId: string,
    operation: string,
    amount: number,
    nowMs: number,
  ): Promise<CreditCharge>;
  /** Ledger rows of the organization in [fromMs, toMs), oldest first. */
  transactions(organizationId: string, fromMs: number, toMs: number): Promise<CreditTransaction[]>;
}

export function d1CreditLedger(db: D1Database): CreditLedger {
  /** The grant: the balance row and its ledger row, both only the first time. */
  const grant = (account: CreditAccount, nowMs: number) => [
    db
      .prepare(
        "insert into credit_balances (organization_id, balance, initial_balance, created_at) values (?, ?, ?, ?) on conflict do nothing",
      )
      .bind(account.organizationId, account.initialCredits, account.initialCredits, nowMs),
    db
      .prepare(
        "insert into credit_transactions (organization_id, user_id, operation, amount, created_at) select ?, null, 'grant', ?, ? where changes() = 1",
      )
      .bind(account.organizationId, account.initialCredits, nowMs),
  ];
  const read = (organizationId: string) =>
    db
      .prepare("select balance, initial_balance, created_at from credit_balances where organization_id = ?")
      .bind(organizationId);
  type BalanceRow = { balance: number; initial_balance: number; created_at: number };

  return {
    async balance(account, nowMs) {
      const results = await db.batch<BalanceRow>([...grant(account, nowMs), read(account.organizationId)]);
      const row = results[2]?.results[0];
      if (!row) throw new Error(`no credit balance for ${account.organizationId}`);
      return { balance: row.balance, initialBalance: row.initial_balance, createdAt: row.created_at };
    },
    async charge(account, userId, operation, amount, nowMs) {
      if (amount === 0) return { ok: true, balance: (await this.balance(account, nowMs)).balance };
      const results = await db.batch<BalanceRow>([
        ...grant(account, nowMs),
        db
          .prepare(
            "update credit_balances set balance = balance - ? where organization_id = ? and balance >= ? returning balance",
          )
          .bind(amount, account.organizationId, amount),
        db
          .prepare(
            "insert into credit_transactions (organization_id, user_id, operation, amount, created_at) select ?, ?, ?, ?, ? where changes() = 1",
          )
          .bind(account.organizationId, userId, operation, -amount, nowMs),
        read(account.organizationId),
      ]);
      // The row the update returned, not `meta.changes`: D1 counts rows that triggers write too.
      const charged = (results[2]?.results.length ?? 0) === 1;
      const balance = results[4]?.results[0]?.balance ?? 0;
      return { ok: charged, balance };
    },
    async transactions(organizationId, fromMs, toMs) {
      const { results } = await db
        .prepare(
          "select user_id, operation, amount, created_at from credit_transactions where organization_id = ? and created_at >= ? and created_at < ? order by created_at, id",
        )
        .bind(organizationId, fromMs, toMs)
        .all<{ user_id: string | null; operation: string; amount: number; created_at: number }>();
      return results.map((row) => ({
        userId: row.user_id,
        operation: row.operation,
        amount: row.amount,
        createdAt: row.created_at,
      }));
    },
  };
}
