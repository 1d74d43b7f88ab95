import { describe, expect, it } from "vitest";
import { runPlan } from "../src/execute";
import { MemorySource, numberRows, prepare, run, runFailure, withLimit } from "./fixture";

const T = "ipv4.20261031";

function numbers(count: number): MemorySource {
  return new MemorySource({ numbers: numberRows(count) });
}

describe("batches", () => {
  it("scans in batches of batchRows and streams output batches as they come", async () => {
    const answer = await run("SELECT n FROM numbers.20261031 WHERE n > 5", {
      source: numbers(25),
      batchRows: 10,
    });
    expect(answer.source.requests.map((r) => [r.after, r.batchRows])).toEqual([
      [null, 10],
      ["10", 10],
      ["20", 10],
    ]);
    expect(answer.rows).toHaveLength(20);
    expect(answer.batches).toBe(3);
  });

  it("stops scanning once a streaming query reaches its LIMIT", async () => {
    const answer = await run("SELECT n FROM numbers.20261031 LIMIT 15", {
      source: numbers(1000),
      batchRows: 10,
    });
    expect(answer.rows).toHaveLength(15);
    expect(answer.source.requests).toHaveLength(2);
    const offset = await run("SELECT DISTINCT parity FROM numbers.20261031 LIMIT 2", {
      source: numbers(1000),
      batchRows: 10,
    });
    expect(offset.rows).toEqual([["odd"], ["even"]]);
    expect(offset.source.requests).toHaveLength(1);
  });

  it("LIMIT 0 reads nothing", async () => {
    const answer = await run("SELECT n FROM numbers.20261031 LIMIT 0", { source: numbers(10) });
    expect(answer.rows).toEqual([]);
    expect(answer.source.requests).toHaveLength(0);
  });

  it("awaits pause after every batch with the busy time since the last pause", async () => {
    const pauses: number[] = [];
    let clock = 1000;
    const now = () => (clock += 1);
    await run("SELECT n FROM numbers.20261031", {
      source: numbers(50),
      batchRows: 10,
      now,
      pause: (busy) => {
        pauses.push(busy);
        return Promise.resolve();
      },
    });
    expect(pauses.length).toBeGreaterThanOrEqual(5);
    expect(pauses.every((busy) => busy >= 0)).toBe(true);
  });

  it("pauses while a join examines many pairs, even when its condition keeps none of them", async () => {
    let pauses = 0;
    // 200 x 200 rows on one key: 40,000 pairs examined, none kept by the rest of the ON.
    const answer = await run(
      "SELECT COUNT(*) FROM numbers.20261031 a JOIN numbers.20261031 b ON a.n - a.n = b.n - b.n AND a.n < 0",
      {
        source: numbers(200),
        batchRows: 200,
        pause: () => {
          pauses++;
          return Promise.resolve();
        },
      },
    );
    expect(answer.rows).toEqual([[0]]);
    // Two scans of one batch each pause twice; the 40,000 pairs pause at least 7 times more.
    expect(pauses).toBeGreaterThanOrEqual(9);
  });

  it("pauses between slices of a long sort", async () => {
    let pauses = 0;
    const answer = await run("SELECT n FROM numbers.20261031 ORDER BY n DESC", {
      source: numbers(20_000),
      batchRows: 20_000,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    expect(answer.rows.slice(0, 2)).toEqual([[20_000], [19_999]]);
    expect(pauses).toBeGreaterThan(5);
  });
});

describe("bounds of a run", () => {
  it("fails past the deadline with the time limit in seconds", async () => {
    let clock = 0;
    const message = await runFailure("SELECT n FROM numbers.20261031", {
      source: numbers(100),
      batchRows: 10,
      deadline: 50,
      timeLimitMs: 30_000,
      now: () => (clock += 10),
    });
    expect(message).toBe("query exceeded the 30 s time limit");
  });

  it("fails as soon as the result has more than maxRows rows", async () => {
    const message = "the result has more than 5 rows; narrow the query or use an export job";
    const source = numbers(1000);
    expect(await runFailure("SELECT n FROM numbers.20261031", { source, maxRows: 5, batchRows: 3 })).toBe(
      message,
    );
    expect(source.requests).toHaveLength(2);
    expect(
      await runFailure("SELECT n FROM numbers.20261031 ORDER BY n", { source: numbers(100), maxRows: 5 }),
    ).toBe(message);
    expect(
      await runFailure("SELECT n, COUNT(*) FROM numbers.20261031 GROUP BY n", {
        source: numbers(100),
        maxRows: 5,
      }),
    ).toBe(message);
    expect(
      (await run("SELECT n FROM numbers.20261031 ORDER BY n LIMIT 5", { source: numbers(100), maxRows: 5 }))
        .rows,
    ).toHaveLength(5);
  });

  it("ORDER BY with LIMIT keeps only the first rows, whatever the table's size", async () => {
    const answer = await withLimit("maxHeldBytes", 20_000, () =>
      run("SELECT n FROM numbers.20261031 ORDER BY parity, n DESC LIMIT 3 OFFSET 1", {
        source: numbers(5000),
        batchRows: 500,
      }),
    );
    expect(answer.rows).toEqual([[4998], [4996], [4994]]);
  });

  it.each([
    [
      "maxHeldBytes",
      "SELECT n FROM numbers.20261031 ORDER BY n",
      "bytes held in memory by ORDER BY, GROUP BY, DISTINCT and JOIN",
    ],
    ["maxGroups", "SELECT n, COUNT(*) FROM numbers.20261031 GROUP BY n", "groups"],
    ["maxGroups", "SELECT DISTINCT n FROM numbers.20261031", "distinct rows"],
    ["maxDistinct", "SELECT COUNT(DISTINCT n) FROM numbers.20261031", "distinct values in one aggregate"],
    [
      "maxDistinct",
      "SELECT COUNT(*) FROM numbers.20261031 WHERE n IN (SELECT n FROM numbers.20261030)",
      "values in an IN subquery",
    ],
    ["maxStringLength", "SELECT STRING_AGG(parity) FROM numbers.20261031", "characters in one string"],
  ] as const)("fails past SQL_LIMITS.%s: %s", async (limit, sql, what) => {
    const message = await withLimit(limit, 20, () => runFailure(sql, { source: numbers(100) }));
    expect(message).toBe(`the query needs more than 20 ${what} (SQL_LIMITS.${limit}); narrow the query`);
  });
});

describe("scan requests", () => {
  it("ask only for the columns and records the query reads", async () => {
    const answer = await run(`SELECT ip FROM ${T} WHERE services.port = 22 ORDER BY location.country`);
    expect(answer.source.requests[0]?.columns).toEqual(["ip", "location.country", "services"]);
    expect((await run(`SELECT COUNT(*) FROM ${T}`)).source.requests[0]?.columns).toEqual([]);
  });

  it("pass top-level equality and IN conditions as hints", async () => {
    const answer = await run(
      `SELECT ip FROM ${T} WHERE location.country = 'US' AND autonomous_system.asn IN (13335, 1) AND ip LIKE '1%'`,
    );
    expect(answer.source.requests[0]?.hints).toEqual([
      { column: "location.country", values: ["US"] },
      { column: "autonomous_system.asn", values: [13335, 1] },
    ]);
    expect(answer.rows).toEqual([["1.1.1.1"]]);
  });

  it("pass no hint for OR, repeated fields, timestamps or NOT IN", async () => {
    const answer = await run(
      `SELECT ip FROM ${T} WHERE (ip = 'a' OR ip = 'b') AND services.port = 22 AND last_updated_at = '2026-10-01' AND ip NOT IN ('c')`,
    );
    expect(answer.source.requests[0]?.hints).toEqual([]);
  });

  it("a source may ignore the hints: the engine still applies the whole WHERE", async () => {
    const answer = await run("SELECT n FROM numbers.20261031 WHERE parity = 'odd' AND n < 6", {
      source: numbers(10),
    });
    expect(answer.rows).toEqual([[1], [3], [5]]);
  });

  it("a plan can run many times", async () => {
    const plan = prepare("SELECT COUNT(*) FROM numbers.20261031");
    for (let i = 0; i < 2; i++) {
      const batches: unknown[][][] = [];
      for await (const batch of runPlan(plan, numbers(7), {
        deadline: Date.now() + 10_000,
        timeLimitMs: 10_000,
        maxRows: 10,
      }))
        batches.push(batch);
      expect(batches).toEqual([[[7]]]);
    }
  });
});
