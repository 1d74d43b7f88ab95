import { accountSchema, searchResponseSchema, V1_SEARCH_PAGE_SIZE, v1ErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { D1DocumentCache } from "../src/cache/d1";
import { edgeDb } from "../src/db/client";
import { PAGE_TOKEN_INDEX } from "../src/pipeline/page-tokens";
import { V1_SEARCH_PAGE_MAX } from "../src/upstream/legacy-v1";
import { delegatingCache } from "./support/delegating-cache";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { ORIGIN_PLATFORM, askOrigin, originBalance, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge, type TestEdge } from "./support/test-edge";

// A v1 search page on a Platform-only upstream (UPSTREAM_API=platform) that is not the one after
// a page read: it walks from the nearest page whose token an earlier page kept, and costs the
// searches of that walk, counted against the credits the origin's organization lost.

const VARS = { UPSTREAM_API: "platform", PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const SEARCH = "/api/v1/search/certificates";
const searches = (edge: TestEdge) => edge.upstream.callsTo("/v3/global/search/query").length;

/** The pages of every certificate, as the origin's own v1 search counts them. */
let last: number;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
  const res = await askOrigin("POST", SEARCH, { query: "*" });
  last = searchResponseSchema.parse(await res.json()).metadata.pages;
  // A few pages: a jump from page 2 to the last one is a walk of more than one search, and
  // within reach.
  expect(last).toBeGreaterThanOrEqual(3);
  expect(last).toBeLessThanOrEqual(V1_SEARCH_PAGE_MAX + 1);
});

async function used(edge: TestEdge, auth: string): Promise<number> {
  const res = await edge.fetch(buildRequest("GET", "/api/v1/account", { auth }));
  return accountSchema.parse(await res.json()).quota.used;
}

/** One page of every certificate: what the tenant was charged, what the organization lost, the answer. */
async function pageCost(edge: TestEdge, auth: string, page: number) {
  const [tenantBefore, orgBefore, searched] = [await used(edge, auth), await originBalance(), searches(edge)];
  const res = await edge.fetch(buildRequest("POST", SEARCH, { auth, body: { query: "*", page } }));
  const body: unknown = await res.json();
  return {
    status: res.status,
    charged: (await used(edge, auth)) - tenantBefore,
    lost: orgBefore - (await originBalance()),
    searches: searches(edge) - searched,
    body,
  };
}

describe("a v1 search page walks from the nearest page a tenant read before it", () => {
  let edge: TestEdge;
  beforeAll(() => {
    edge = testEdge({ vars: VARS });
  });
  const tenant = async (allowance = 1_000) =>
    tenantAuth(await createTenant({ allowance, tier: "unlimited" }, edge.fetch));

  it("costs the pages walked from the nearest kept page, not from the first", async () => {
    const auth = await tenant();
    // Page 1 keeps the token of page 2.
    expect(await pageCost(edge, auth, 1)).toMatchObject({ status: 200, charged: 1, lost: 1, searches: 1 });
    // Pages 2 to the last, from page 2's token; from the first it would be `last` searches.
    const jump = await pageCost(edge, auth, last);
    expect(jump).toMatchObject({ status: 200, charged: last - 1, lost: last - 1, searches: last - 1 });
    const { metadata, results } = searchResponseSchema.parse(jump.body);
    expect(results).toHaveLength(metadata.count - (last - 1) * V1_SEARCH_PAGE_SIZE);
  });

  it("answers a page past the tenth within ten of a kept page: the walk ends at the last page, one search", async () => {
    const auth = await tenant();
    // Page 1, then the last page, keeps every token up to the last page's.
    await pageCost(edge, auth, 1);
    await pageCost(edge, auth, last);
    const page = last + V1_SEARCH_PAGE_MAX - 1;
    expect(page).toBeGreaterThan(V1_SEARCH_PAGE_MAX);
    const beyond = await pageCost(edge, auth, page);
    // The last page is searched again (its token is kept), has no next one: page `page` is empty.
    expect(beyond).toMatchObject({ status: 200, charged: 1, lost: 1, searches: 1 });
    const answer = searchResponseSchema.parse(beyond.body);
    expect(answer.results).toEqual([]);
    expect(answer.metadata).toMatchObject({ page, pages: last });
  });

  it("refuses a page more than ten past every page read, before any search, at no cost", async () => {
    const auth = await tenant();
    await pageCost(edge, auth, 1);
    await pageCost(edge, auth, last);
    // The nearest kept page, `last`, is ten below: a walk of eleven searches.
    for (const page of [last + V1_SEARCH_PAGE_MAX, 1_000_000]) {
      const refused = await pageCost(edge, auth, page);
      expect(refused, String(page)).toMatchObject({ status: 400, charged: 0, lost: 0, searches: 0 });
      expect(v1ErrorSchema.parse(refused.body).error, String(page)).toMatch(/narrow the query/);
    }
  });

  it("tells a tenant with less left than a walk costs that its page is out of reach, not that its quota is", async () => {
    const auth = await tenant(1);
    const refused = await pageCost(edge, auth, V1_SEARCH_PAGE_MAX + 1);
    expect(refused).toMatchObject({ status: 400, charged: 0, lost: 0, searches: 0 });
    expect(v1ErrorSchema.parse(refused.body).error).toMatch(/narrow the query/);
  });

  it("holds only the searches the walk can make: a tenant with two credits left reads page 3 after page 1", async () => {
    const auth = await tenant(3);
    expect(await pageCost(edge, auth, 1)).toMatchObject({ status: 200, charged: 1 });
    // From page 2's token: two searches held, not three.
    expect(await pageCost(edge, auth, 3)).toMatchObject({ status: 200, charged: 2, lost: 2 });
    expect(await used(edge, auth)).toBe(3);
  });

  it("looks up at most ten kept pages, each once, however deep the page asked", async () => {
    const d1 = new D1DocumentCache(edgeDb(env.DB));
    const asked: string[] = [];
    const cache = delegatingCache(d1, {
      peek: () => null,
      get: (key, keepAlive) => {
        if (key.index === PAGE_TOKEN_INDEX) asked.push(key.atTime);
        return d1.get(key, keepAlive);
      },
    });
    const counted = testEdge({ vars: VARS, overrides: { cache } });
    const auth = tenantAuth(await createTenant({ allowance: 1_000, tier: "unlimited" }, counted.fetch));
    const pagesAsked = async (page: number) => {
      asked.length = 0;
      const res = await counted.fetch(buildRequest("POST", SEARCH, { auth, body: { query: "*", page } }));
      await res.arrayBuffer();
      return { status: res.status, asked: asked.map(Number).sort((a, b) => a - b) };
    };
    const upTo = (page: number, from: number) => Array.from({ length: page - from + 1 }, (_, i) => from + i);
    expect(await pagesAsked(1_000_000)).toEqual({ status: 400, asked: upTo(1_000_000, 999_991) });
    expect(await pagesAsked(1)).toEqual({ status: 200, asked: [] });
    // The route (its hold) and the translation (its walk) both ask where page 8's walk starts;
    // it walks from page 2 to the last page.
    expect(await pagesAsked(8)).toEqual({ status: 200, asked: upTo(8, 2) });
    expect(searches(counted)).toBe(1 + (last - 1));
  });
});
