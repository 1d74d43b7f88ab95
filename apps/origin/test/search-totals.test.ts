import { env } from "cloudflare:workers";
import { hostsSearchResultSchema, searchResponseSchema, v2Envelope } from "@scangate/core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { forgetTotals, KEPT_TOTALS } from "../src/services/search-totals";
import { seedTestDataset } from "./seed-fixture";
import { getJson, postJson } from "./support/requests";
import { v3Post } from "./v3-requests";

// A search's total is counted once per dataset and statement and kept in the isolate
// (src/services/search-totals.ts). The dataset only changes by a reseed, so these tests move a
// host to another country by hand, which no API can do, to show which total was counted when.

beforeAll(() => seedTestDataset());
afterEach(() => forgetTotals());

const envelope = v2Envelope(hostsSearchResultSchema);

async function v2Search(query: string) {
  const { res, body } = await getJson(
    `/api/v2/hosts/search?${new URLSearchParams({ q: query, per_page: "100" }).toString()}`,
  );
  expect(res.status).toBe(200);
  return envelope.parse(body).result;
}

async function v1Search(query: string) {
  const { res, body } = await postJson("/api/v1/search/ipv4", { query });
  expect(res.status).toBe(200);
  return searchResponseSchema.parse(body).metadata.count;
}

async function v3Total(query: string): Promise<number> {
  const { res, body } = await v3Post("/v3/global/search/query", { query, page_size: 1 });
  expect(res.status).toBe(200);
  return (body as { result: { total_hits: number } }).result.total_hits;
}

/** The most common country code of the test dataset, and a host in it. */
async function commonCountry(): Promise<{ code: string; ip: string; hosts: number }> {
  const row = await env.DB.prepare(
    "SELECT country_code AS code, min(ip) AS ip, count(*) AS hosts FROM hosts WHERE country_code IS NOT NULL GROUP BY country_code ORDER BY hosts DESC LIMIT 1",
  ).first<{ code: string; ip: string; hosts: number }>();
  if (!row || row.hosts < 2) throw new Error("the test dataset has no country with two hosts");
  return row;
}

async function setDataset(value: string): Promise<void> {
  await env.DB.prepare("UPDATE dataset_meta SET value = ? WHERE key = 'dataset'").bind(value).run();
}

async function withMovedHost<T>(ip: string, code: string, body: () => Promise<T>): Promise<T> {
  await env.DB.prepare("UPDATE hosts SET country_code = 'ZZ' WHERE ip = ?").bind(ip).run();
  try {
    return await body();
  } finally {
    await env.DB.prepare("UPDATE hosts SET country_code = ? WHERE ip = ?").bind(code, ip).run();
  }
}

describe("search totals", () => {
  it("keeps a counted total for the dataset while the page is read fresh, and counts again after a reseed", async () => {
    const { code, ip, hosts } = await commonCountry();
    const query = `location.country_code: ${code}`;
    const meta = await env.DB.prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'").first<{
      value: string;
    }>();
    const first = await v2Search(query);
    expect(first.total).toBe(hosts);
    expect(first.hits.map((h) => h.ip)).toContain(ip);

    await withMovedHost(ip, code, async () => {
      // Same dataset: the kept total, beside a page read now (the moved host is gone from it).
      const kept = await v2Search(query);
      expect(kept.total).toBe(hosts);
      expect(kept.hits.map((h) => h.ip)).not.toContain(ip);
      expect(kept.hits).toHaveLength(first.hits.length - 1);

      // Another dataset fingerprint: counted again, and kept under it.
      await setDataset("reseeded");
      try {
        expect((await v2Search(query)).total).toBe(hosts - 1);
        expect((await v2Search(query)).total).toBe(hosts - 1);
      } finally {
        await setDataset(meta?.value ?? "");
      }
    });
  });

  it("keeps v1 and v3 search totals the same way", async () => {
    const { code, ip, hosts } = await commonCountry();
    const v1Query = `location.country_code: ${code}`;
    const v3Query = `host.location.country_code: ${code}`;
    const v1 = await v1Search(v1Query);
    const v3 = await v3Total(v3Query);
    expect(v1).toBe(hosts);
    expect(v3).toBe(hosts);
    await withMovedHost(ip, code, async () => {
      expect(await v1Search(v1Query)).toBe(hosts);
      expect(await v3Total(v3Query)).toBe(hosts);
      forgetTotals();
      expect(await v1Search(v1Query)).toBe(hosts - 1);
      expect(await v3Total(v3Query)).toBe(hosts - 1);
    });
  });

  it("counts a query with another parameter apart, and forgets the least recently used beyond its size", async () => {
    const { code, ip, hosts } = await commonCountry();
    const query = `location.country_code: ${code}`;
    expect((await v2Search(query)).total).toBe(hosts);
    await withMovedHost(ip, code, async () => {
      // Another statement text: counted now, not the first query's total.
      expect((await v2Search(`${query} and not ip: 0.0.0.0`)).total).toBe(hosts - 1);
      // Push the first query's total out with as many other queries as the isolate keeps.
      for (let port = 1; port <= KEPT_TOTALS; port++) await v2Search(`services.port: ${port}`);
      expect((await v2Search(query)).total).toBe(hosts - 1);
    });
  });
});
