import { parseQuery } from "@scangate/search";
import { beforeAll, describe, expect, it } from "vitest";
import { PLANTED } from "./real-queries/planted";
import { REAL_QUERIES, type RealQuery } from "./real-queries/queries";
import { seedTestDataset } from "./seed-fixture";
import { plantHosts } from "./support/plant";
import { getJson, postJson } from "./support/requests";
import { v3Call } from "./v3-requests";

/**
 * Queries people published, asked as written in the dialect they were written for (v1 search,
 * v2 hosts search, the Platform's search), against the generated dataset and the hosts
 * planted beside it: each parses, is answered (never "unknown field"), and finds what
 * queries.ts says it finds, through the routes a client calls.
 */

beforeAll(async () => {
  await seedTestDataset();
  await plantHosts(PLANTED);
});

interface Answer {
  status: number;
  /** The hosts' addresses (or websites' domains) of every page, or the refusal. */
  found: string[];
  total: number;
  error?: string;
}

/** Pages a search may walk looking for the expected hit (the planted hosts sort among the generated). */
const MAX_PAGES = 10;

async function v1(query: RealQuery): Promise<Answer> {
  const index = query.index ?? "ipv4";
  const found: string[] = [];
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { res, body } = await postJson(`/api/v1/search/${index}`, { query: query.query, page });
    if (res.status !== 200) return { status: res.status, found, total, error: JSON.stringify(body) };
    const metadata = body.metadata as { count: number; pages: number };
    total = metadata.count;
    for (const result of body.results as Record<string, unknown>[])
      found.push(String(result.ip ?? result.domain ?? result["parsed.fingerprint_sha256"]));
    if (page >= metadata.pages) break;
  }
  return { status: 200, found, total };
}

async function v2(query: RealQuery): Promise<Answer> {
  const found: string[] = [];
  let total = 0;
  let cursor = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams({ q: query.query, per_page: "100", ...(cursor ? { cursor } : {}) });
    const { res, body } = await getJson(`/api/v2/hosts/search?${params.toString()}`);
    if (res.status !== 200) return { status: res.status, found, total, error: JSON.stringify(body) };
    const result = body.result as { total: number; hits: { ip: string }[]; links: { next: string } };
    total = result.total;
    found.push(...result.hits.map((hit) => hit.ip));
    cursor = result.links.next;
    if (cursor === "") break;
  }
  return { status: 200, found, total };
}

async function cenql(query: RealQuery): Promise<Answer> {
  const found: string[] = [];
  let total = 0;
  let token = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await v3Call("POST", "/v3/global/search/query", {
      body: { query: query.query, page_size: 100, ...(token ? { page_token: token } : {}) },
    });
    const body = await res.json<Record<string, unknown>>();
    if (res.status !== 200) return { status: res.status, found, total, error: JSON.stringify(body) };
    const result = body.result as {
      total_hits: number;
      next_page_token: string;
      hits: { host_v1?: { resource: { ip: string } }; webproperty_v1?: { resource: { hostname: string } } }[];
    };
    total = result.total_hits;
    for (const hit of result.hits)
      found.push(hit.host_v1?.resource.ip ?? hit.webproperty_v1?.resource.hostname ?? "?");
    token = result.next_page_token;
    if (token === "") break;
  }
  return { status: 200, found, total };
}

const ask = (query: RealQuery): Promise<Answer> =>
  query.dialect === "v1" ? v1(query) : query.dialect === "v2" ? v2(query) : cenql(query);

describe("real queries", () => {
  it("are at least a hundred, from each dialect", () => {
    expect(REAL_QUERIES.length).toBeGreaterThanOrEqual(150);
    for (const dialect of ["v1", "v2", "cenql"] as const)
      expect(REAL_QUERIES.filter((q) => q.dialect === dialect).length).toBeGreaterThanOrEqual(25);
  });

  it("answers CenQL spanning hosts and web properties with hits of both kinds", async () => {
    const answer = await cenql({
      dialect: "cenql",
      query: 'host.services.threats.name = "Sliver" or web.threats.name = "Sliver"',
      finds: "generated",
    });
    expect(answer.status, answer.error).toBe(200);
    expect(answer.found).toContain("198.51.100.28");
    expect(answer.found).toContain("sliver-staging.example");
    expect(answer.total).toBe(answer.found.length);
  });

  it.each(REAL_QUERIES.map((query) => [query.query, query] as const))("%s", async (_, query) => {
    const parsed = parseQuery(query.query, query.dialect);
    expect(parsed.ok || parsed.error.message).toBe(true);
    const answer = await ask(query);
    // Never "unknown field": a query the real service takes names fields this one knows.
    expect(answer.error ?? "").not.toMatch(/unknown field/);
    const { finds } = query;
    if (typeof finds === "object" && "refused" in finds) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.error).toMatch(finds.refused);
      return;
    }
    expect(answer.error ?? "").toBe("");
    expect(answer.status).toBe(200);
    if (typeof finds === "object") {
      expect(answer.total, finds.none).toBe(0);
    } else if (finds === "generated") {
      expect(answer.total).toBeGreaterThan(0);
    } else {
      expect(answer.found).toContain(finds);
    }
  });
});
