import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1DocumentCache } from "../src/cache/d1";
import type { CachedDocument, DocumentKey } from "../src/cache/interface";
import { MemoryTieredCache } from "../src/cache/memory-tier";
import { edgeDb } from "../src/db/client";
import { ManualClock } from "./support/clock";
import { delegatingCache } from "./support/delegating-cache";

/** The memory tier over the real D1 cache; D1 rows are changed behind its back to see who answers. */
function tiered(limits: { holdMs: number; maxChars: number } = { holdMs: 5000, maxChars: 1_000_000 }) {
  const clock = new ManualClock(Date.now());
  const d1 = new D1DocumentCache(edgeDb(env.DB));
  return { clock, d1, cache: new MemoryTieredCache(d1, clock, limits) };
}

let counter = 0;
function key(atTime = ""): DocumentKey {
  return { index: "certificates", id: (++counter).toString(16).padStart(64, "0"), atTime };
}

const doc = (body: string, now: number): CachedDocument => ({
  body,
  negative: false,
  fetchedAt: now,
  expiresAt: now + 3_600_000,
});

/** Changes a row's body in D1 itself, through another D1 cache (as another isolate would). */
async function rewriteInD1(k: DocumentKey, body: string): Promise<void> {
  const d1 = new D1DocumentCache(edgeDb(env.DB));
  const row = await d1.get(k);
  if (!row) throw new Error(`no D1 row for ${k.id}`);
  await d1.put([{ key: k, doc: { ...row, body } }]);
}

describe("the memory tier in front of D1", () => {
  it("answers a row from memory for holdMs, then reads D1 again", async () => {
    const { clock, cache } = tiered();
    const k = key();
    await cache.put([{ key: k, doc: doc('{"v":1}', clock.now()) }]);
    await rewriteInD1(k, '{"v":2}');
    expect((await cache.get(k))?.body).toBe('{"v":1}');
    clock.advance(4999);
    expect((await cache.get(k))?.body).toBe('{"v":1}');
    clock.advance(1);
    expect((await cache.get(k))?.body).toBe('{"v":2}');
  });

  it("shares one D1 read among concurrent reads of a key it does not hold", async () => {
    const { clock, d1 } = tiered();
    const k = key();
    await d1.put([{ key: k, doc: doc('{"v":1}', clock.now()) }]);
    let reads = 0;
    const counting = new MemoryTieredCache(
      delegatingCache(d1, { peek: () => null, get: (asked) => (reads++, d1.get(asked)) }),
      clock,
      { holdMs: 5000, maxChars: 1_000_000 },
    );
    const bodies = await Promise.all(Array.from({ length: 5 }, () => counting.get(k)));
    expect(bodies.map((b) => b?.body)).toEqual(Array(5).fill('{"v":1}'));
    expect(reads).toBe(1);
    // Held now: peek answers from memory, with no read at all.
    expect(counting.peek(k)?.body).toBe('{"v":1}');
    expect(reads).toBe(1);
  });

  it("reads alone when the read it joined has not answered within its join wait", async () => {
    const { clock, d1 } = tiered();
    const k = key();
    await d1.put([{ key: k, doc: doc('{"v":1}', clock.now()) }]);
    let reads = 0;
    const hung = new Promise<CachedDocument | null>(() => undefined);
    const cache = new MemoryTieredCache(
      // The first read never answers (its request cancelled mid-statement); later ones do.
      delegatingCache(d1, { peek: () => null, get: (asked) => (reads++ === 0 ? hung : d1.get(asked)) }),
      clock,
      { holdMs: 5000, maxChars: 1_000_000 },
      20,
    );
    void cache.get(k);
    const joiner = await cache.get(k);
    expect(joiner?.body).toBe('{"v":1}');
    expect(reads).toBe(2);
    // The joiner's own read is held: the next read is answered from memory.
    expect(cache.peek(k)?.body).toBe('{"v":1}');
  });

  it("putSoon holds rows at once and writes those stored together to D1 in one deferred batch", async () => {
    const { clock, d1, cache } = tiered();
    const [a, b] = [key(), key()];
    const deferred: Promise<void>[] = [];
    const defer = (write: Promise<void>) => void deferred.push(write);
    await Promise.all([
      cache.putSoon([{ key: a, doc: doc('{"a":1}', clock.now()) }], defer),
      cache.putSoon([{ key: b, doc: doc('{"b":1}', clock.now()) }], defer),
    ]);
    // Visible here at once; not in D1 yet; one write handed off for both rows.
    expect(cache.peek(a)?.body).toBe('{"a":1}');
    expect(await d1.get(a)).toBeNull();
    expect(deferred).toHaveLength(1);
    await Promise.all(deferred);
    expect((await d1.get(a))?.body).toBe('{"a":1}');
    expect((await d1.get(b))?.body).toBe('{"b":1}');
  });

  it("a purge before the deferred write keeps the row out of D1", async () => {
    const { clock, d1, cache } = tiered();
    const k = key();
    const deferred: Promise<void>[] = [];
    await cache.putSoon([{ key: k, doc: doc('{"v":1}', clock.now()) }], (write) => void deferred.push(write));
    await cache.purge(k.index, k.id);
    await Promise.all(deferred);
    expect(await d1.get(k)).toBeNull();
    expect(await cache.get(k)).toBeNull();
  });

  it("with the memory tier off, putSoon writes D1 before it resolves", async () => {
    const { clock, d1, cache } = tiered({ holdMs: 0, maxChars: 1_000_000 });
    const k = key();
    let deferred = 0;
    await cache.putSoon([{ key: k, doc: doc('{"v":1}', clock.now()) }], () => void deferred++);
    expect(deferred).toBe(0);
    expect((await d1.get(k))?.body).toBe('{"v":1}');
  });

  it("holds a row it read from D1, not only the ones it wrote", async () => {
    const { clock, d1, cache } = tiered();
    const k = key();
    await d1.put([{ key: k, doc: doc('{"v":1}', clock.now()) }]);
    expect((await cache.get(k))?.body).toBe('{"v":1}');
    await rewriteInD1(k, '{"v":2}');
    expect((await cache.get(k))?.body).toBe('{"v":1}');
  });

  it("keeps the row's own expiry, so holding never makes a stale row fresh", async () => {
    const { clock, cache } = tiered();
    const k = key();
    const stale = { ...doc("{}", clock.now()), expiresAt: clock.now() - 1 };
    await cache.put([{ key: k, doc: stale }]);
    expect((await cache.get(k))?.expiresAt).toBe(stale.expiresAt);
  });

  it("drops every point in time of a purged document at once", async () => {
    const { clock, cache } = tiered();
    const now = key();
    const past = { ...now, atTime: "2026-10-01T00:00:00Z" };
    await cache.put([
      { key: now, doc: doc('{"t":"now"}', clock.now()) },
      { key: past, doc: doc('{"t":"past"}', clock.now()) },
    ]);
    expect(await cache.purge(now.index, now.id)).toBe(2);
    expect(await cache.get(now)).toBeNull();
    expect(await cache.get(past)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it("serves getMany from memory where it can and D1 for the rest, in one D1 read", async () => {
    const { clock, d1, cache } = tiered();
    const [a, b, c] = [key(), key(), key()];
    await cache.put([{ key: a, doc: doc('{"id":"a"}', clock.now()) }]);
    await d1.put([
      { key: b, doc: doc('{"id":"b"}', clock.now()) },
      { key: c, doc: doc('{"id":"c"}', clock.now()) },
    ]);
    await rewriteInD1(a, '{"id":"a2"}');
    const found = await cache.getMany("certificates", [a.id, b.id, c.id, key().id]);
    expect([...found.entries()].map(([id, d]) => [id, d.body]).sort()).toEqual(
      [
        [a.id, '{"id":"a"}'],
        [b.id, '{"id":"b"}'],
        [c.id, '{"id":"c"}'],
      ].sort(),
    );
    expect(cache.size).toBe(3);
  });

  it("lets the least recently used rows go once the bodies pass maxChars", async () => {
    const { clock, cache } = tiered({ holdMs: 5000, maxChars: 30 });
    const keys = [key(), key(), key()];
    for (const [i, k] of keys.entries())
      await cache.put([{ key: k, doc: doc(`{"n":"${"x".repeat(5)}${i}"}`, clock.now()) }]);
    // 14 characters each: the third pushes the total to 42, so the first goes.
    expect(cache.size).toBe(2);
    await rewriteInD1(keys[0]!, '{"from":"d1"}');
    expect((await cache.get(keys[0]!))?.body).toBe('{"from":"d1"}');
  });

  it("keeps a held row's UTF-8 bytes once asked, counts them in maxChars, and encodes other bodies each time", async () => {
    // Two rows of 14 characters, then the first one's 15 bytes: 43 units, over 40, so the row
    // used least recently (the second: the first was just read) goes.
    const { clock, cache } = tiered({ holdMs: 5000, maxChars: 40 });
    const [first, second] = [key(), key()];
    const body = '{"n":"éxxxx0"}';
    await cache.put([{ key: first, doc: doc(body, clock.now()) }]);
    await cache.put([{ key: second, doc: doc('{"n":"xxxxx1"}', clock.now()) }]);
    const held = cache.peek(first);
    if (!held) throw new Error("the first row is not held");
    const bytes = cache.bodyBytes(first, held.body);
    expect(new TextDecoder().decode(bytes)).toBe(body);
    expect(bytes.length).toBe(body.length + 1); // é is two bytes
    expect(cache.bodyBytes(first, held.body)).toBe(bytes);
    expect(cache.size).toBe(1);
    expect(cache.peek(second)).toBeNull();
    // Another version of the body (or a key not held) is encoded, not taken from the row.
    const other = cache.bodyBytes(first, '{"n":"other"}');
    expect(new TextDecoder().decode(other)).toBe('{"n":"other"}');
    expect(cache.bodyBytes(second, '{"n":"xxxxx1"}')).not.toBe(cache.bodyBytes(second, '{"n":"xxxxx1"}'));
    // Dropping the row gives its bytes' room back: both rows fit again.
    await cache.purge("certificates", first.id);
    await cache.put([{ key: second, doc: doc('{"n":"xxxxx1"}', clock.now()) }]);
    await cache.put([{ key: first, doc: doc(body, clock.now()) }]);
    expect(cache.size).toBe(2);
  });

  it("keeps the bytes of the answer a route renders of a row, for that rendering alone", async () => {
    // One row of 14 characters: the 26 bytes of its rendered answer fit beside it (40), the plain
    // bytes asked next replace them (14 + 14), and another row's 14 then bring the total to 42,
    // over 40, so the first row, used least recently, goes.
    const { clock, cache } = tiered({ holdMs: 5000, maxChars: 40 });
    const [first, second] = [key(), key()];
    const body = '{"n":"xxxxx0"}';
    await cache.put([{ key: first, doc: doc(body, clock.now()) }]);
    const enveloped = (text: string) => `{"result":${text}}`;
    const bytes = cache.bodyBytes(first, body, enveloped);
    expect(new TextDecoder().decode(bytes)).toBe(`{"result":${body}}`);
    expect(cache.bodyBytes(first, body, enveloped)).toBe(bytes);
    const plain = cache.bodyBytes(first, body);
    expect(new TextDecoder().decode(plain)).toBe(body);
    expect(cache.bodyBytes(first, body)).toBe(plain);
    expect(cache.size).toBe(1);
    await cache.put([{ key: second, doc: doc('{"n":"xxxxx1"}', clock.now()) }]);
    expect(cache.peek(first)).toBeNull();
    expect(cache.size).toBe(1);
  });

  it("holds nothing when holdMs is 0", async () => {
    const { clock, cache } = tiered({ holdMs: 0, maxChars: 1_000_000 });
    const k = key();
    await cache.put([{ key: k, doc: doc('{"v":1}', clock.now()) }]);
    await rewriteInD1(k, '{"v":2}');
    expect((await cache.get(k))?.body).toBe('{"v":2}');
    expect(cache.size).toBe(0);
  });
});
