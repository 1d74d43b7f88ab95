import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BatchedReads, KEYS_PER_READ } from "../src/cache/batched-reads";
import { D1DocumentCache } from "../src/cache/d1";
import { type CachedDocument, type DocumentKey, documentKeyOf } from "../src/cache/interface";
import { edgeDb } from "../src/db/client";
import { meteredD1, runMetered, StatementMeter } from "../src/db/statement-meter";

let counter = 0;
function key(index: DocumentKey["index"] = "certificates", atTime = ""): DocumentKey {
  return { index, id: `batched-${(++counter).toString(16).padStart(8, "0")}`, atTime };
}

const doc = (body: string): CachedDocument => ({
  body,
  negative: false,
  fetchedAt: 1,
  expiresAt: null,
});

/** A reader whose statements answer only when the test says so; it records each one's keys. */
function heldReader(rows: ReadonlyMap<string, CachedDocument> = new Map()) {
  const statements: string[][] = [];
  const answers: Array<(failure?: Error) => void> = [];
  const reads = new BatchedReads(
    (keys) =>
      new Promise<Map<string, CachedDocument>>((resolve, reject) => {
        statements.push(keys.map((k) => k.id));
        answers.push((failure) => {
          if (failure) return reject(failure);
          const found = new Map<string, CachedDocument>();
          for (const k of keys) {
            const row = rows.get(documentKeyOf(k));
            if (row) found.set(documentKeyOf(k), row);
          }
          resolve(found);
        });
      }),
    50,
  );
  return { reads, statements, answer: (i: number, failure?: Error) => answers[i]?.(failure) };
}

/** Lets every settled promise's continuations run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("batched document reads", () => {
  it("runs a read on an idle isolate at once, alone", async () => {
    const k = key();
    const { reads, statements, answer } = heldReader(new Map([[documentKeyOf(k), doc("a")]]));
    const read = reads.get(k);
    expect(statements).toEqual([[k.id]]);
    answer(0);
    expect((await read)?.body).toBe("a");
  });

  it("sends the reads that arrive while one runs together in the next statement", async () => {
    const keys = Array.from({ length: 6 }, () => key());
    const rows = new Map(keys.slice(0, 5).map((k, i) => [documentKeyOf(k), doc(`body ${i}`)]));
    const { reads, statements, answer } = heldReader(rows);
    const [first, ...rest] = keys;
    const results = [reads.get(first ?? key()), ...rest.map((k) => reads.get(k))];
    await settle();
    // The first runs; the other five wait for it, then go as one.
    expect(statements).toEqual([[first?.id]]);
    answer(0);
    await settle();
    expect(statements[1]).toEqual(rest.map((k) => k.id));
    answer(1);
    const bodies = (await Promise.all(results)).map((row) => row?.body ?? null);
    expect(bodies).toEqual(["body 0", "body 1", "body 2", "body 3", "body 4", null]);
  });

  it("puts at most KEYS_PER_READ keys in one statement; a read past that runs in parallel", async () => {
    const keys = Array.from({ length: KEYS_PER_READ + 2 }, () => key());
    const { reads, statements, answer } = heldReader();
    const results = keys.map((k) => reads.get(k));
    await settle();
    expect(statements.map((s) => s.length)).toEqual([1, 1]);
    answer(0);
    answer(1);
    await settle();
    expect(statements.map((s) => s.length)).toEqual([1, 1, KEYS_PER_READ]);
    answer(2);
    expect(await Promise.all(results)).toEqual(keys.map(() => null));
  });

  it("gives every read of a failed statement its error, and the next read a statement of its own", async () => {
    const [a, b, c, d] = [key(), key(), key(), key()];
    const { reads, statements, answer } = heldReader();
    const first = reads.get(a);
    const batch = [reads.get(b), reads.get(c)];
    await settle();
    answer(0);
    await expect(first).resolves.toBeNull();
    await settle();
    answer(1, new Error("D1 is down"));
    for (const read of batch) await expect(read).rejects.toThrow("D1 is down");
    const after = reads.get(d);
    expect(statements.at(-1)).toEqual([d.id]);
    answer(statements.length - 1);
    await expect(after).resolves.toBeNull();
  });

  it("hands each statement to the keepAlive of the request running it, settled even when it fails", async () => {
    const [a, b, c] = [key(), key(), key()];
    const { reads, answer } = heldReader();
    const kept: Promise<void>[] = [];
    const keepAlive = (work: Promise<void>) => void kept.push(work);
    const first = reads.get(a, keepAlive);
    const batch = [reads.get(b, keepAlive), reads.get(c, keepAlive)];
    await settle();
    // Only the statement running now has been handed over; c joins b's and runs none.
    expect(kept).toHaveLength(1);
    answer(0);
    await expect(first).resolves.toBeNull();
    await settle();
    expect(kept).toHaveLength(2);
    answer(1, new Error("D1 is down"));
    for (const read of batch) await expect(read).rejects.toThrow("D1 is down");
    // The kept work ends either way, so waitUntil never sees a rejection.
    await expect(Promise.all(kept)).resolves.toEqual([undefined, undefined]);
  });

  it("reads alone when the statement it waits for has not answered within the join wait", async () => {
    const [a, b, c] = [key(), key(), key()];
    const { reads, statements, answer } = heldReader();
    void reads.get(a).catch(() => undefined);
    const next = reads.get(b);
    const joined = reads.get(c);
    // Statement 0 never answers: after 50 ms b runs the next statement (with c) itself, and c,
    // whose wait began when it joined, gives up on that one too and reads alone.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(statements).toEqual([[a.id], [b.id, c.id], [c.id]]);
    answer(2);
    await expect(joined).resolves.toBeNull();
    answer(1);
    await expect(next).resolves.toBeNull();
  });
});

describe("batched reads of the D1 document cache", () => {
  it("answers concurrent reads of mixed indexes and points in time in two statements", async () => {
    const cache = new D1DocumentCache(edgeDb(env.DB));
    const keys = [
      key("certificates"),
      key("hosts"),
      key("hosts", "2026-01-01T00:00:00Z"),
      key("certificates"),
      key("hosts", "2026-01-01T00:00:00Z"),
    ];
    const stored = keys.slice(0, 4);
    await cache.put(stored.map((k, i) => ({ key: k, doc: doc(`{"n":${i}}`) })));
    // The same id at another point in time is another document.
    const other = { ...keys[2], atTime: "2025-01-01T00:00:00Z" } as DocumentKey;
    await cache.put([{ key: other, doc: doc('{"n":"other"}') }]);

    const meter = new StatementMeter();
    const metered = new D1DocumentCache(edgeDb(meteredD1(env.DB)));
    const rows = await runMetered(meter, () => Promise.all(keys.map((k) => metered.get(k))));
    expect(rows.map((row) => row?.body ?? null)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', null]);
    expect(rows[0]).toMatchObject({ negative: false, fetchedAt: 1, expiresAt: null });
    expect(meter.statements).toBe(2);
  });
});
