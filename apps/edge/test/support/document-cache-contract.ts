import { describe, expect, it } from "vitest";
import type { CachedDocument, DocumentCache, DocumentKey } from "../../src/cache/interface";

/**
 * What an implementation of the store under test gives the contract: a cache over empty
 * storage, and `reopen()`, another cache over the same storage (as another isolate would see
 * it), to check what a change left in the shared store.
 */
export interface DocumentCacheUnderTest {
  readonly cache: DocumentCache;
  readonly reopen: () => DocumentCache;
}

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

let counter = 0;
/** A fresh certificate key (a 64-hex id no other test uses). */
function certificate(atTime = ""): DocumentKey {
  counter += 1;
  return { index: "certificates", id: counter.toString(16).padStart(64, "c"), atTime };
}

const doc = (body: string, changes: Partial<CachedDocument> = {}): CachedDocument => ({
  body,
  negative: false,
  fetchedAt: NOW,
  expiresAt: NOW + HOUR,
  ...changes,
});

/**
 * The behaviour every `DocumentCache` shares, registered as tests against `open` (called once
 * per test; it starts from empty storage).
 */
export function describeDocumentCacheContract(
  name: string,
  open: () => Promise<DocumentCacheUnderTest>,
): void {
  describe(`DocumentCache contract: ${name}`, () => {
    it("answers null for a document it does not hold", async () => {
      const { cache } = await open();
      expect(await cache.get(certificate())).toBeNull();
    });

    // An implementation may give back more than a CachedDocument (D1 rows carry their key too).
    it("gives back what was put, every field as written", async () => {
      const { cache, reopen } = await open();
      const [fresh, negative, forever] = [certificate(), certificate(), certificate()];
      await cache.put([
        { key: fresh, doc: doc('{"v":1}') },
        { key: negative, doc: doc('{"error":"unknown"}', { negative: true, expiresAt: NOW + 300_000 }) },
        { key: forever, doc: doc('{"v":"past"}', { fetchedAt: NOW - HOUR, expiresAt: null }) },
      ]);
      for (const store of [cache, reopen()]) {
        expect(await store.get(fresh)).toMatchObject(doc('{"v":1}'));
        expect(await store.get(negative)).toMatchObject(
          doc('{"error":"unknown"}', { negative: true, expiresAt: NOW + 300_000 }),
        );
        expect(await store.get(forever)).toMatchObject(
          doc('{"v":"past"}', { fetchedAt: NOW - HOUR, expiresAt: null }),
        );
      }
    });

    it("replaces a document put again under the same key", async () => {
      const { cache, reopen } = await open();
      const key = certificate();
      await cache.put([{ key, doc: doc('{"v":1}') }]);
      await cache.put([
        { key, doc: doc('{"v":2}', { negative: true, fetchedAt: NOW + 1, expiresAt: null }) },
      ]);
      const expected = doc('{"v":2}', { negative: true, fetchedAt: NOW + 1, expiresAt: null });
      expect(await cache.get(key)).toMatchObject(expected);
      expect(await reopen().get(key)).toMatchObject(expected);
    });

    it("puts more rows than one statement binds, and concurrent gets find each or none", async () => {
      const { cache, reopen } = await open();
      const keys = Array.from({ length: 30 }, () => certificate());
      await cache.put(keys.map((key, i) => ({ key, doc: doc(`{"n":${i}}`, { negative: i % 3 === 0 }) })));
      const unknown = Array.from({ length: 5 }, () => certificate());
      for (const store of [cache, reopen()]) {
        // Asked at once: D1 answers them a few keys per statement.
        const found = await Promise.all([...keys, ...unknown].map((key) => store.get(key)));
        expect(found.slice(0, 30).map((d) => [d?.body, d?.negative])).toEqual(
          keys.map((_, i) => [`{"n":${i}}`, i % 3 === 0]),
        );
        expect(found.slice(30)).toEqual(Array(5).fill(null));
      }
    });

    it("does nothing for an empty put", async () => {
      const { cache } = await open();
      await cache.put([]);
      expect(await cache.getMany("certificates", [certificate().id])).toEqual(new Map());
    });

    it("keeps each index and each point in time apart", async () => {
      const { cache } = await open();
      const current = certificate();
      const past = { ...current, atTime: "1767225600000000000" };
      const otherIndex = { ...current, index: "hosts" as const };
      await cache.put([
        { key: current, doc: doc('{"t":"now"}') },
        { key: past, doc: doc('{"t":"past"}') },
        { key: otherIndex, doc: doc('{"t":"host"}') },
      ]);
      expect((await cache.get(current))?.body).toBe('{"t":"now"}');
      expect((await cache.get(past))?.body).toBe('{"t":"past"}');
      expect((await cache.get(otherIndex))?.body).toBe('{"t":"host"}');
      expect(await cache.get({ ...current, atTime: "1767225600000000001" })).toBeNull();
    });

    it("getMany finds the current documents of one index and leaves the missing ones out", async () => {
      const { cache } = await open();
      const [a, b, missing] = [certificate(), certificate(), certificate()];
      await cache.put([
        { key: a, doc: doc('{"id":"a"}') },
        { key: b, doc: doc('{"id":"b"}') },
        { key: { ...missing, atTime: "1767225600000000000" }, doc: doc('{"id":"past"}') },
        { key: { ...missing, index: "hosts" }, doc: doc('{"id":"host"}') },
      ]);
      const found = await cache.getMany("certificates", [a.id, missing.id, b.id]);
      expect(new Map([...found].map(([id, d]) => [id, d.body]))).toEqual(
        new Map([
          [a.id, '{"id":"a"}'],
          [b.id, '{"id":"b"}'],
        ]),
      );
      expect(await cache.getMany("certificates", [])).toEqual(new Map());
    });

    it("getMany at a point in time finds that instant's documents only, and v3 indexes stay apart", async () => {
      const { cache, reopen } = await open();
      const [a, b] = [certificate(), certificate()];
      const at = "1767225600000000000";
      await cache.put([
        { key: { ...a, index: "v3_host", atTime: at }, doc: doc('{"id":"a then"}') },
        { key: { ...a, index: "v3_host" }, doc: doc('{"id":"a now"}') },
        { key: { ...b, index: "v3_host", atTime: "1767225600000000001" }, doc: doc('{"id":"b later"}') },
        { key: { ...b, index: "hosts", atTime: at }, doc: doc('{"id":"b legacy"}') },
      ]);
      for (const store of [cache, reopen()]) {
        const found = await store.getMany("v3_host", [a.id, b.id], at);
        expect(new Map([...found].map(([id, d]) => [id, d.body]))).toEqual(
          new Map([[a.id, '{"id":"a then"}']]),
        );
        expect((await store.getMany("v3_host", [a.id]))?.get(a.id)?.body).toBe('{"id":"a now"}');
      }
    });

    it("getMany answers more ids than one statement may bind", async () => {
      const { cache } = await open();
      const keys = Array.from({ length: 120 }, () => certificate());
      await cache.put(keys.slice(0, 60).map((key) => ({ key, doc: doc(`{"id":"${key.id}"}`) })));
      await cache.put(keys.slice(60).map((key) => ({ key, doc: doc(`{"id":"${key.id}"}`) })));
      const found = await cache.getMany(
        "certificates",
        keys.map((k) => k.id),
      );
      expect([...found.keys()].sort()).toEqual(keys.map((k) => k.id).sort());
    });

    it("purge removes every point in time of one document, and only that document", async () => {
      const { cache, reopen } = await open();
      const current = certificate();
      const past = { ...current, atTime: "1767225600000000000" };
      const neighbour = certificate();
      const sameIdOtherIndex = { ...current, index: "hosts" as const };
      await cache.put([
        { key: current, doc: doc("{}") },
        { key: past, doc: doc("{}") },
        { key: neighbour, doc: doc("{}") },
        { key: sameIdOtherIndex, doc: doc("{}") },
      ]);
      expect(await cache.purge("certificates", current.id)).toBe(2);
      for (const store of [cache, reopen()]) {
        expect(await store.get(current)).toBeNull();
        expect(await store.get(past)).toBeNull();
        expect(await store.get(neighbour)).not.toBeNull();
        expect(await store.get(sameIdOtherIndex)).not.toBeNull();
      }
      expect(await cache.purge("certificates", current.id)).toBe(0);
    });

    it("cleanup drops rows stale beyond keepStaleMs and keeps usable and never-expiring ones", async () => {
      const { cache, reopen } = await open();
      const [gone, usable, fresh, forever] = [certificate(), certificate(), certificate(), certificate()];
      const DAY = 24 * HOUR;
      await cache.put([
        { key: gone, doc: doc("{}", { fetchedAt: NOW - 30 * DAY, expiresAt: NOW - 8 * DAY }) },
        { key: usable, doc: doc("{}", { fetchedAt: NOW - 2 * DAY, expiresAt: NOW - DAY }) },
        { key: fresh, doc: doc("{}", { fetchedAt: NOW, expiresAt: NOW + DAY }) },
        { key: forever, doc: doc("{}", { fetchedAt: NOW - 900 * DAY, expiresAt: null }) },
      ]);
      expect(await cache.cleanup(NOW, 7 * DAY, 1000)).toBe(1);
      const shared = reopen();
      expect(await shared.get(gone)).toBeNull();
      for (const kept of [usable, fresh, forever]) expect(await shared.get(kept)).not.toBeNull();
    });

    it("cleanup keeps at most maxRows, dropping the least recently fetched first", async () => {
      const { cache, reopen } = await open();
      const keys = Array.from({ length: 5 }, () => certificate());
      await cache.put(
        keys.map((key, i) => ({ key, doc: doc("{}", { fetchedAt: NOW - (i + 1) * 1000, expiresAt: null }) })),
      );
      expect(await cache.cleanup(NOW, 0, 2)).toBe(3);
      const found = await reopen().getMany(
        "certificates",
        keys.map((k) => k.id),
      );
      expect([...found.keys()].sort()).toEqual([keys[0]!.id, keys[1]!.id].sort());
    });
  });
}
