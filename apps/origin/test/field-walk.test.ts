import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CATALOG_INDEXES,
  documentLeaves,
  isLeafStored,
  isSearchable,
  type CatalogIndex,
  type DocumentLeaf,
} from "../src/dataset/field-catalog";
import { getJson, postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

// Every leaf path a stored document shows is searchable (and reportable / aggregatable) with
// the value the document shows, through the real routes; the leaves that are deliberately not
// searchable are the ones NOT_SEARCHABLE (src/dataset/field-catalog.ts) lists, and those are
// refused as unknown fields. HTTP bodies (HASHED_LEAVES) are found by their whole value and not
// broken down: their hashes are.

beforeAll(() => seedTestDataset());

interface StoredDocument {
  /** A query clause that pins the search to this one document. */
  pin: string;
  document: unknown;
}

const SOURCES: Record<CatalogIndex, { sql: string; pin: (key: string) => string }> = {
  hosts: { sql: "SELECT ip AS key, doc FROM hosts ORDER BY rowid", pin: (ip) => `ip: ${ip}` },
  ipv4: { sql: "SELECT ip AS key, v1_doc AS doc FROM hosts ORDER BY rowid", pin: (ip) => `ip: ${ip}` },
  certificates: {
    sql: "SELECT sha256 AS key, doc FROM certificates ORDER BY rowid",
    pin: (sha) => `parsed.fingerprint_sha256: ${sha}`,
  },
  websites: {
    sql: "SELECT domain AS key, doc FROM websites ORDER BY rowid",
    pin: (domain) => `domain: "${domain}"`,
  },
};

async function storedDocuments(index: CatalogIndex): Promise<StoredDocument[]> {
  const source = SOURCES[index];
  const { results } = await env.DB.prepare(source.sql).all<{ key: string; doc: string }>();
  return results.map((row) => ({ pin: source.pin(row.key), document: JSON.parse(row.doc) as unknown }));
}

/** One sample per leaf path: the first document showing it, with the first value it shows there. */
async function samples(index: CatalogIndex): Promise<{ pin: string; leaf: DocumentLeaf }[]> {
  const byPath = new Map<string, { pin: string; leaf: DocumentLeaf }>();
  for (const stored of await storedDocuments(index)) {
    for (const leaf of documentLeaves(index, stored.document)) {
      if (!byPath.has(leaf.path)) byPath.set(leaf.path, { pin: stored.pin, leaf });
    }
  }
  return [...byPath.values()];
}

/** Runs `check` over `items` a few at a time (hundreds of requests per index). */
async function inParallel<T>(items: readonly T[], check: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 8) await Promise.all(items.slice(i, i + 8).map(check));
}

/** Hundreds of requests per index on a shared 2-core machine. */
const WALK_TIMEOUT = 240_000;

function quoted(value: string | number | boolean): string {
  return `"${String(value).replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** Documents matching `query` in the index, through its search route. */
async function searchCount(
  index: CatalogIndex,
  query: string,
): Promise<{ status: number; count: number; detail: string }> {
  if (index === "hosts") {
    const q = new URLSearchParams({ q: query, per_page: "1" }).toString();
    const { res, body } = await getJson<{ result?: { total: number }; detail?: string }>(
      `/api/v2/hosts/search?${q}`,
    );
    return { status: res.status, count: body.result?.total ?? -1, detail: String(body.detail ?? "") };
  }
  const { res, body } = await postJson<{ metadata?: { count: number }; detail?: string }>(
    `/api/v1/search/${index}`,
    { query, fields: [] },
  );
  return { status: res.status, count: body.metadata?.count ?? -1, detail: String(body.detail ?? "") };
}

/** The bucket keys of `field` over the documents matching `query` (v2 aggregate, v1 report). */
async function bucketKeys(index: CatalogIndex, field: string, query: string): Promise<string[]> {
  if (index === "hosts") {
    const q = new URLSearchParams({ q: query, field, num_buckets: "100" }).toString();
    const { res, body } = await getJson<{ result: { buckets: { key: string }[] } }>(
      `/api/v2/hosts/aggregate?${q}`,
    );
    expect(res.status, `${field} aggregate`).toBe(200);
    return body.result.buckets.map((bucket) => bucket.key);
  }
  const { res, body } = await postJson<{ results: { key: string }[] }>(`/api/v1/report/${index}`, {
    query,
    field,
    buckets: 500,
  });
  expect(res.status, `${field} report`).toBe(200);
  return body.results.map((bucket) => String(bucket.key));
}

/** The document's value as a bucket key may show it (dates as instants, text case-insensitively). */
function sameKey(key: string, value: string | number | boolean): boolean {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    return Math.floor(Date.parse(key)) === Math.floor(Date.parse(value));
  }
  return key.toLowerCase() === String(value).toLowerCase();
}

describe.each(CATALOG_INDEXES)("every leaf of the %s documents", (index) => {
  it(
    "finds its document by the value it shows, or is a listed unsearchable leaf",
    async () => {
      const walked = await samples(index);
      expect(walked.length).toBeGreaterThan(10);
      const failures: string[] = [];
      await inParallel(walked, async ({ pin, leaf }) => {
        const query = `${pin} and ${leaf.path}: ${quoted(leaf.value)}`;
        const found = await searchCount(index, query);
        if (!isSearchable(index, leaf.path)) {
          if (found.status < 400 || !found.detail.includes("unknown field"))
            failures.push(`${leaf.path} is listed as not searchable but answered ${found.status}`);
        } else if (found.status !== 200 || found.count !== 1) {
          failures.push(`${query} -> ${found.status} ${found.count} ${found.detail}`);
        }
      });
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT,
  );

  it(
    "breaks every searchable leaf down with the document's value among the keys",
    async () => {
      const failures: string[] = [];
      const walked = (await samples(index)).filter(({ leaf }) => isLeafStored(index, leaf.path));
      await inParallel(walked, async ({ pin, leaf }) => {
        const keys = await bucketKeys(index, leaf.path, pin);
        if (!keys.some((key) => sameKey(key, leaf.value)))
          failures.push(
            `${leaf.path}: ${JSON.stringify(leaf.value)} not in ${JSON.stringify(keys.slice(0, 5))}`,
          );
      });
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT,
  );
});
