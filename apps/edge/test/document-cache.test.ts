import { env } from "cloudflare:workers";
import { D1DocumentCache } from "../src/cache/d1";
import { MemoryTieredCache } from "../src/cache/memory-tier";
import { edgeDb } from "../src/db/client";
import { ManualClock } from "./support/clock";
import { describeDocumentCacheContract } from "./support/document-cache-contract";

// One contract, run against every DocumentCache the edge can be given.

/** Storage is shared within this file: each test starts from an empty documents table. */
async function emptyD1(): Promise<D1DocumentCache> {
  await env.DB.prepare("delete from documents").run();
  return new D1DocumentCache(edgeDb(env.DB));
}

describeDocumentCacheContract("D1", async () => {
  const cache = await emptyD1();
  return { cache, reopen: () => new D1DocumentCache(edgeDb(env.DB)) };
});

describeDocumentCacheContract("memory tier over D1", async () => {
  const clock = new ManualClock();
  const limits = { holdMs: 5000, maxChars: 1_000_000 };
  const cache = new MemoryTieredCache(await emptyD1(), clock, limits);
  // Another isolate: its own memory over the same D1.
  return { cache, reopen: () => new MemoryTieredCache(new D1DocumentCache(edgeDb(env.DB)), clock, limits) };
});

describeDocumentCacheContract("memory tier holding nothing", async () => {
  const cache = new MemoryTieredCache(await emptyD1(), new ManualClock(), { holdMs: 0, maxChars: 0 });
  return { cache, reopen: () => new D1DocumentCache(edgeDb(env.DB)) };
});
