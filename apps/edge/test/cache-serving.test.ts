import { ApiError } from "@scangate/core";
import { describe, expect, it } from "vitest";
import type { BulkFetchDeps } from "../src/cache/bulk-fetch";
import { certificatesBulkCodec } from "../src/cache/bulk-merge";
import type { CachedDocument, DocumentCache, DocumentKey } from "../src/cache/interface";
import type { CachedFetchSpec, DocumentFetchDeps } from "../src/cache/refresh";
import { fetchMissingBulk, lookupBulk } from "../src/cache/serve-bulk";
import { fetchDocument, lookupDocument } from "../src/cache/serve-document";
import { SingleFlight } from "../src/cache/single-flight";
import type { Relayed } from "../src/upstream/relay";

// The cache's serving decisions and billing's charge decisions as plain functions: no Hono, no
// D1. The cache here is a Map behind the DocumentCache interface, the upstream a function.

const POLICY = { staleWhileRevalidateMs: 60_000, staleIfErrorMs: 600_000 };
const KEY: DocumentKey = { index: "certificates", id: "a".repeat(64), atTime: "" };
const SPEC: CachedFetchSpec = {
  key: KEY,
  path: "/v1/view/certificates/x",
  ttlSeconds: 100,
  negativeBody: "{}",
};

function relayed(status: number, json: unknown = { ok: status }): Relayed {
  const body = new TextEncoder().encode(JSON.stringify(json));
  return { status, body, json, contentType: "application/json", retryAfter: null, credentialId: "c1" };
}

function mapCache(): DocumentCache & { rows: Map<string, CachedDocument> } {
  const rows = new Map<string, CachedDocument>();
  const id = (key: DocumentKey) => `${key.index}/${key.id}/${key.atTime}`;
  return {
    rows,
    get: (key) => Promise.resolve(rows.get(id(key)) ?? null),
    peek: () => null,
    bodyBytes: (_key, body) => new TextEncoder().encode(body),
    getMany: () => Promise.resolve(new Map()),
    put: (entries) => {
      for (const { key, doc } of entries) rows.set(id(key), doc);
      return Promise.resolve();
    },
    putSoon: (entries) => {
      for (const { key, doc } of entries) rows.set(id(key), doc);
      return Promise.resolve();
    },
    purge: () => Promise.resolve(0),
    cleanup: () => Promise.resolve(0),
  };
}

function setup(answer: () => Promise<Relayed>) {
  let now = 1_000_000;
  const cache = mapCache();
  const calls: string[] = [];
  const deps: DocumentFetchDeps = {
    cache,
    clock: { now: () => now },
    flights: new SingleFlight(10_000),
    negativeTtlSeconds: 5,
    defer: () => undefined,
    fetchUpstream: (path) => {
      calls.push(path);
      return answer();
    },
  };
  return {
    deps,
    cache,
    calls,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

describe("serving one document from the cache", () => {
  it("misses, stores a 200, and then serves it fresh without asking the upstream", async () => {
    const t = setup(() => Promise.resolve(relayed(200)));
    const lookup = await lookupDocument(t.deps, POLICY, SPEC, false);
    expect(lookup).toMatchObject({ kind: "upstream", fwd: "uri-miss", fallback: null });
    if (lookup.kind !== "upstream") return;
    const { outcome, calledUpstream } = await fetchDocument(t.deps, SPEC, lookup);
    expect(outcome).toMatchObject({ kind: "miss", stored: true, fwd: "uri-miss" });
    expect(calledUpstream).toBe(true);
    expect(await lookupDocument(t.deps, POLICY, SPEC, false)).toMatchObject({
      kind: "fresh",
      revalidate: false,
    });
    expect(t.calls).toHaveLength(1);
  });

  it("keeps a 404 as a negative row and serves it as negative", async () => {
    const t = setup(() => Promise.resolve(relayed(404)));
    const lookup = await lookupDocument(t.deps, POLICY, SPEC, false);
    if (lookup.kind !== "upstream") throw new Error("expected a miss");
    expect((await fetchDocument(t.deps, SPEC, lookup)).outcome).toMatchObject({ kind: "miss", stored: true });
    expect(await lookupDocument(t.deps, POLICY, SPEC, false)).toMatchObject({ kind: "negative" });
  });

  it("serves a row past its TTL within stale-while-revalidate, saying to refresh it", async () => {
    const t = setup(() => Promise.resolve(relayed(200)));
    await t.cache.put([
      { key: KEY, doc: { body: "{}", negative: false, fetchedAt: t.now(), expiresAt: t.now() } },
    ]);
    t.advance(1_000);
    expect(await lookupDocument(t.deps, POLICY, SPEC, false)).toMatchObject({
      kind: "fresh",
      revalidate: true,
    });
  });

  it("asks the upstream when the caller sent no-cache, keeping the row as a fallback", async () => {
    const t = setup(() => Promise.resolve(relayed(200)));
    await t.cache.put([
      { key: KEY, doc: { body: "{}", negative: false, fetchedAt: t.now(), expiresAt: null } },
    ]);
    expect(await lookupDocument(t.deps, POLICY, SPEC, true)).toMatchObject({
      kind: "upstream",
      fwd: "request",
    });
  });

  const failures: Array<[string, () => Promise<Relayed>]> = [
    ["answers 503", () => Promise.resolve(relayed(503))],
    ["cannot be reached", () => Promise.reject(new Error("connection reset"))],
  ];

  it.each(failures)("answers with the stale row when the upstream %s", async (_how, answer) => {
    const t = setup(answer);
    const doc = { body: "{}", negative: false, fetchedAt: t.now(), expiresAt: t.now() };
    await t.cache.put([{ key: KEY, doc }]);
    t.advance(120_000); // past stale-while-revalidate, within stale-if-error
    const lookup = await lookupDocument(t.deps, POLICY, SPEC, false);
    expect(lookup).toMatchObject({ kind: "upstream", fwd: "stale", fallback: doc });
    if (lookup.kind !== "upstream") return;
    expect((await fetchDocument(t.deps, SPEC, lookup)).outcome).toMatchObject({ kind: "stale", doc });
  });

  it("without a stale row, a failing answer is a miss with its status and an unreachable upstream throws", async () => {
    const failing = setup(() => Promise.resolve(relayed(503)));
    const unreachable = setup(() => Promise.reject(new Error("connection reset")));
    const miss = { kind: "upstream" as const, fwd: "uri-miss" as const, fallback: null };
    expect((await fetchDocument(failing.deps, SPEC, miss)).outcome).toMatchObject({
      kind: "miss",
      relayed: { status: 503 },
    });
    await expect(fetchDocument(unreachable.deps, SPEC, miss)).rejects.toBeInstanceOf(ApiError);
  });

  it("collapses concurrent misses into one upstream call; the followers are collapsed", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const t = setup(async () => {
      await gate;
      return relayed(200);
    });
    const lookups = await Promise.all([1, 2, 3].map(() => lookupDocument(t.deps, POLICY, SPEC, false)));
    const served = lookups.map((lookup) => {
      if (lookup.kind !== "upstream") throw new Error("expected misses");
      return fetchDocument(t.deps, SPEC, lookup);
    });
    release();
    const kinds = (await Promise.all(served)).map((s) => s.outcome.kind).sort();
    expect(kinds).toEqual(["collapsed", "collapsed", "miss"]);
    expect(t.calls).toHaveLength(1);
  });
});

describe("a request whose leaders cannot pay", () => {
  /** Flights that every time end refused by a leader that is not this request. */
  class RefusedFlights extends SingleFlight<unknown> {
    joins = 0;
    override run<T>(): Promise<{ value: T; leader: boolean }> {
      this.joins += 1;
      return Promise.resolve({ value: { refused: new Error("not mine") } as T, leader: false });
    }
  }

  it("pays and asks the upstream itself after joining MAX refused flights", async () => {
    const t = setup(() => Promise.resolve(relayed(200)));
    const flights = new RefusedFlights(10_000);
    let paid = 0;
    const lookup = await lookupDocument(t.deps, POLICY, SPEC, false);
    if (lookup.kind !== "upstream") throw new Error("expected a miss");
    const served = await fetchDocument({ ...t.deps, flights }, SPEC, lookup, () => {
      paid += 1;
      return Promise.resolve();
    });
    expect(flights.joins).toBe(8);
    expect(paid).toBe(1);
    expect(served.calledUpstream).toBe(true);
    expect(served.outcome.kind).toBe("miss");
    expect(t.calls).toHaveLength(1);
  });
});

describe("serving a bulk from the cache", () => {
  const A = "a".repeat(64);
  const B = "b".repeat(64);

  /** A bulk's deps over a Map cache whose memory holds what was stored, and a counted upstream. */
  function bulkSetup() {
    const now = 1_000_000;
    const cache = mapCache();
    cache.peek = (key) => cache.rows.get(`${key.index}/${key.id}/${key.atTime}`) ?? null;
    const posted: string[][] = [];
    const deps: BulkFetchDeps = {
      cache,
      clock: { now: () => now },
      flights: new SingleFlight(10_000),
      negativeTtlSeconds: 5,
      defer: () => undefined,
      codec: certificatesBulkCodec(100),
      postBulk: (body) => {
        const { fingerprints } = JSON.parse(new TextDecoder().decode(body)) as { fingerprints: string[] };
        posted.push(fingerprints);
        return Promise.resolve(relayed(200, Object.fromEntries(fingerprints.map((fp) => [fp, { fp }]))));
      },
    };
    /** Rows another request's call stored after this request read the cache. */
    const storeMeanwhile = (...ids: string[]) => {
      for (const id of ids) {
        cache.rows.set(`certificates/${id}/`, {
          body: `{"fp":"${id}"}`,
          negative: false,
          fetchedAt: now,
          expiresAt: now + 100_000,
        });
      }
    };
    return { deps, posted, storeMeanwhile };
  }

  it("answers ids another call stored after the request read the cache from memory, without a call of its own", async () => {
    const t = bulkSetup();
    const lookup = await lookupBulk(t.deps, POLICY, [A, B], false);
    expect(lookup.toFetch).toEqual([A, B]);
    t.storeMeanwhile(A);
    const outcome = await fetchMissingBulk(t.deps, lookup);
    // B alone went upstream; A came from the other call, as if this request had joined it.
    expect(t.posted).toEqual([[B]]);
    expect(outcome).toMatchObject({ kind: "miss", known: { own: 1, joined: 1 } });

    const again = bulkSetup();
    const second = await lookupBulk(again.deps, POLICY, [A, B], false);
    again.storeMeanwhile(A, B);
    expect(await fetchMissingBulk(again.deps, second)).toMatchObject({
      kind: "collapsed",
      known: { own: 0, joined: 2 },
    });
    expect(again.posted).toEqual([]);
  });

  it("asks the upstream for every id when the caller asked to revalidate, whatever memory holds", async () => {
    const t = bulkSetup();
    t.storeMeanwhile(A, B);
    const lookup = await lookupBulk(t.deps, POLICY, [A, B], true);
    const outcome = await fetchMissingBulk(t.deps, lookup);
    expect(t.posted).toEqual([[A, B]]);
    expect(outcome).toMatchObject({ kind: "miss", known: { own: 2, joined: 0 } });
  });
});
