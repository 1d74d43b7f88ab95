import { describe, expect, it } from "vitest";
import { runPlan } from "../src/execute";
import { SQL_LIMITS } from "../src/limits";
import type { SourceRow } from "../src/source";
import { MemorySource, prepare, refusal, run, runFailure, withLimit } from "./fixture";

const T = "numbers.20261031";

/** `count` rows in one table whose `parity` is `length` characters of text. */
function longRows(count: number, length: number): MemorySource {
  const rows: SourceRow[] = Array.from({ length: count }, (_, i) => ({
    n: i + 1,
    half: (i + 1) / 2,
    parity: `${String(i).padStart(6, "0")}${"ab".repeat(length / 2)}`.slice(0, length),
  }));
  return new MemorySource({ numbers: rows });
}

/** Runs `sql` over `source` in one batch and counts the pauses. */
async function pausesOf(sql: string, source: MemorySource): Promise<number> {
  let pauses = 0;
  await run(sql, {
    source,
    batchRows: 10_000,
    pause: () => {
      pauses++;
      return Promise.resolve();
    },
  });
  return pauses;
}

describe("work is counted where it is done", () => {
  // 50 rows of 20,000 characters in one batch: 1,000,000 characters read by each function. A
  // run that counted rows only would pause once (after the batch).
  it.each([
    ["REGEXP_MATCH", "SELECT n FROM {T} WHERE REGEXP_MATCH(parity, r'b{3}')"],
    ["REGEXP_CONTAINS", "SELECT n FROM {T} WHERE REGEXP_CONTAINS(parity, r'x')"],
    ["REGEXP_EXTRACT", "SELECT REGEXP_EXTRACT(parity, r'(b+)$') FROM {T}"],
    ["REGEXP_REPLACE", "SELECT REGEXP_REPLACE(parity, r'x', 'c') FROM {T}"],
    ["LIKE", "SELECT n FROM {T} WHERE parity LIKE '%x%'"],
    ["CONTAINS", "SELECT n FROM {T} WHERE parity CONTAINS 'x'"],
    ["CONCAT", "SELECT LENGTH(CONCAT(parity, 'x')) FROM {T}"],
    ["||", "SELECT LENGTH(parity || 'x') FROM {T}"],
    ["REPLACE", "SELECT LENGTH(REPLACE(parity, 'a', 'cc')) FROM {T}"],
    ["LOWER", "SELECT LENGTH(LOWER(parity)) FROM {T}"],
    ["SUBSTR", "SELECT SUBSTR(parity, 19990) FROM {T}"],
    ["SPLIT", "SELECT ARRAY_LENGTH(SPLIT(parity, 'a')) FROM {T}"],
    ["comparison", "SELECT n FROM {T} WHERE parity = CONCAT(parity, '')"],
    ["NULLIF", "SELECT n FROM {T} WHERE NULLIF(parity, parity) IS NULL"],
    ["CAST", "SELECT n FROM {T} WHERE SAFE_CAST(parity AS INT64) IS NULL"],
    ["GROUP_CONCAT", "SELECT LENGTH(GROUP_CONCAT(SUBSTR(parity, 1, 19000))) FROM {T}"],
    ["MAX", "SELECT LENGTH(MAX(parity)) FROM {T}"],
    ["GROUP BY", "SELECT LENGTH(parity), COUNT(*) FROM {T} GROUP BY parity"],
    ["DISTINCT", "SELECT DISTINCT LENGTH(parity), parity FROM {T}"],
  ])("%s pauses within a batch of long values", async (_name, sql) => {
    const pauses = await pausesOf(sql.replace("{T}", T), longRows(50, 20_000));
    expect(pauses).toBeGreaterThanOrEqual(4);
  });

  it("cheap rows pause once a scanned batch, as before", async () => {
    let pauses = 0;
    await run(`SELECT n, parity FROM ${T} WHERE n > 0`, {
      source: longRows(10_000, 10),
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    // Batches of 2,000 rows.
    expect(pauses).toBe(5);
  });

  it("a query over one large batch stops at the deadline before it finishes the batch", async () => {
    let clock = 0;
    let received = 0;
    const batches = runPlan(
      prepare(`SELECT REGEXP_REPLACE(parity, r'a', 'c') FROM ${T}`),
      longRows(1_000, 2_000),
      {
        batchRows: 10_000,
        deadline: 50,
        timeLimitMs: 30_000,
        maxRows: 10_000,
        now: () => (clock += 10),
      },
    );
    const drain = async () => {
      for await (const batch of batches) received += batch.length;
    };
    await expect(drain()).rejects.toThrow("query exceeded the 30 s time limit");
    expect(received).toBeLessThan(1_000);
  });

  it("fails a row whose functions together pass SQL_LIMITS.maxRowSteps", async () => {
    const message = await withLimit("maxRowSteps", 100_000, () =>
      runFailure(`SELECT LOWER(parity) || UPPER(parity) || LOWER(parity) FROM ${T}`, {
        source: longRows(2, 20_000),
      }),
    );
    expect(message).toBe(
      "the query needs more than 100000 steps of work for one row (SQL_LIMITS.maxRowSteps); narrow the query",
    );
  });

  it("charges a pattern's worst case before it runs, and refuses a match past one row's bound", async () => {
    const message = await runFailure(`SELECT n FROM ${T} WHERE REGEXP_MATCH(parity, r'(?s).{0,999}x')`, {
      source: longRows(1, 5_000),
    });
    expect(message).toBe(
      "REGEXP_MATCH over a value of 5000 characters with a pattern of 2001 instructions needs more than " +
        "8000000 steps of work (SQL_LIMITS.maxRowSteps); narrow the input or simplify the pattern",
    );
    // The same pattern over short values runs.
    const answer = await run(`SELECT COUNT(*) FROM ${T} WHERE REGEXP_MATCH(parity, r'(?s).{0,999}x')`, {
      source: longRows(100, 200),
    });
    expect(answer.rows).toEqual([[0]]);
  });
});

describe("strings a query builds are bounded before they are built", () => {
  it.each([
    ["REPLACE", "SELECT REPLACE(parity, 'a', '{X}') FROM {T}"],
    ["REGEXP_REPLACE of an empty pattern", "SELECT REGEXP_REPLACE(parity, r'', '{X}') FROM {T}"],
    ["CONCAT", "SELECT CONCAT(parity, parity, parity, parity, parity, parity) FROM {T}"],
    ["||", "SELECT parity || parity || parity || parity || parity || parity FROM {T}"],
    ["GROUP_CONCAT", "SELECT GROUP_CONCAT(parity) FROM {T}"],
  ])("%s past SQL_LIMITS.maxStringLength fails", async (_name, sql) => {
    const message = await runFailure(sql.replace("{T}", T).replace("{X}", "x".repeat(200)), {
      source: longRows(10, 200_000),
    });
    expect(message).toBe(
      `the query needs more than ${SQL_LIMITS.maxStringLength} characters in one string (SQL_LIMITS.maxStringLength); narrow the query`,
    );
  });

  it("a CAST of a million digits that are not a number is read in linear time", async () => {
    const digits: SourceRow[] = [{ n: 1, half: 1, parity: `${"1".repeat(1_000_000)}x` }];
    const answer = await run(`SELECT SAFE_CAST(parity AS FLOAT64), SAFE_CAST(parity AS INT64) FROM ${T}`, {
      source: new MemorySource({ numbers: digits }),
    });
    expect(answer.rows).toEqual([[null, null]]);
  });
});

describe("rows held in memory are bounded in bytes", () => {
  const heldMessage = `the query needs more than ${SQL_LIMITS.maxHeldBytes} bytes held in memory by ORDER BY, GROUP BY, DISTINCT and JOIN (SQL_LIMITS.maxHeldBytes); narrow the query`;

  it.each([
    ["ORDER BY", `SELECT parity FROM ${T} ORDER BY parity`],
    ["ORDER BY with a LIMIT it must hold", `SELECT parity FROM ${T} ORDER BY parity LIMIT 2000`],
    ["GROUP BY", `SELECT parity, COUNT(*) FROM ${T} GROUP BY parity`],
    ["DISTINCT", `SELECT DISTINCT parity FROM ${T}`],
    ["an aggregate's values", `SELECT n, MAX(parity) FROM ${T} GROUP BY n`],
    ["JOIN", `SELECT a.n FROM ${T} a JOIN numbers.20261030 b ON a.n = b.n`],
  ])("%s of 2,000 rows of 20,000 characters fails past 32 MiB", async (_name, sql) => {
    expect(await runFailure(sql, { source: longRows(2_000, 20_000), batchRows: 500 })).toBe(heldMessage);
  });

  it("ORDER BY with a small LIMIT over the same rows keeps only what it needs", async () => {
    const answer = await run(`SELECT n FROM ${T} ORDER BY parity DESC LIMIT 3`, {
      source: longRows(2_000, 20_000),
      batchRows: 500,
    });
    expect(answer.rows).toEqual([[2000], [1999], [1998]]);
  });
});

describe("patterns are measured before they are compiled", () => {
  it("refuses a pattern past SQL_LIMITS.maxRegexProgram as RE2 does, without compiling it", () => {
    expect(refusal(`SELECT n FROM ${T} WHERE REGEXP_MATCH(parity, r'(?is)${".{0,999}".repeat(100)}#')`)).toBe(
      "Cannot parse regular expression: pattern too large - compile failed (199803 instructions, more than 3000: SQL_LIMITS.maxRegexProgram) at [1:59]",
    );
  });

  it("accepts the counted repetitions RE2 accepts on one character", () => {
    expect(() => refusal(`SELECT n FROM ${T} WHERE REGEXP_MATCH(parity, r'^[a-z]{1,1000}$')`)).toThrow(
      "expected the query to be refused",
    );
  });

  it("refuses a LIKE pattern past the bound", () => {
    expect(refusal(`SELECT n FROM ${T} WHERE parity LIKE '${"x".repeat(3_000)}%'`)).toMatch(
      /^LIKE pattern: pattern too large - compile failed \(3005 instructions/,
    );
  });
});

describe("joins pause between rows however few of them match", () => {
  it("a join on long keys that match nothing pauses within a batch", async () => {
    const pauses = await pausesOf(
      `SELECT COUNT(*) FROM ${T} a JOIN numbers.20261030 b ON a.parity = CONCAT(b.parity, 'x')`,
      longRows(400, 20_000),
    );
    expect(pauses).toBeGreaterThanOrEqual(10);
  });
});
