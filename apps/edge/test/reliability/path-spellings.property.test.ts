import { platformTokenWithSecretSchema, tenantSchema } from "@scangate/core";
import { canonicalRequest } from "@scangate/core/http";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { json } from "../support/fake-upstream";
import { ORIGIN_PLATFORM } from "../support/origin-data";
import { admin, buildRequest, createTenant, EDGE, type Fetch, tenantAuth } from "../support/requests";
import { concretePlatformRoutes, concreteRoutes } from "../support/routes";
import { testEdge } from "../support/test-edge";
import { suiteSecretWatch } from "./secret-watch";

// Every route's path, spelled the ways a client may spell it (characters percent-encoded in
// either case, dot segments, repeated slashes, a trailing slash), is the same request as its plain
// spelling: routed, priced, authorised, rewritten upstream and cached exactly alike.

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };

beforeAll(() => suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]));

/** An arbitrary spelling of `path` that means it. */
function spelling(path: string): fc.Arbitrary<string> {
  const segments = path.split("/").slice(1);
  const encodeChar = (char: string, upper: boolean) => {
    const hex = [...new TextEncoder().encode(char)]
      .map((b) => `%${b.toString(16).padStart(2, "0")}`)
      .join("");
    return upper ? hex.toUpperCase() : hex;
  };
  const segment = (text: string) =>
    fc
      .tuple(fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }), fc.boolean())
      .map(([picks, upper]) =>
        [...text].map((char, i) => (picks[i] && char !== "%" ? encodeChar(char, upper) : char)).join(""),
      );
  return fc
    .tuple(
      fc.tuple(...segments.map(segment)),
      fc.array(fc.constantFrom("", "/", "./", "x/../", "%2e/", "%2e/x/%2E%2e/"), {
        minLength: segments.length,
        maxLength: segments.length,
      }),
      fc.boolean(),
    )
    .map(([spelled, detours, trailing]) => {
      const parts = spelled.map((text, i) => `${detours[i] ?? ""}${text}`);
      return `/${parts.join("/")}${trailing ? "/" : ""}`;
    });
}

const ROUTES = [
  ...concreteRoutes().map((route) => ({ ...route, api: "legacy" as const })),
  ...concretePlatformRoutes().map((route) => ({ ...route, api: "platform" as const })),
];

describe("every route's spellings", () => {
  it("have its plain spelling's one canonical form, which is the request every part of the edge reads", () => {
    for (const route of ROUTES) {
      fc.assert(
        fc.property(spelling(route.path), (spelled) => {
          const plain = canonicalRequest(new Request(`${EDGE}${route.path}`));
          const other = canonicalRequest(new Request(`${EDGE}${spelled}`));
          expect(other.ok && plain.ok && other.request.url).toBe(plain.ok && plain.request.url);
        }),
        { numRuns: 40 },
      );
    }
  });

  // The routes whose answer comes from the upstream (tags and comments are the edge's own and
  // are not priced; the spelled request is the same one above).
  const FORWARDED = ROUTES.filter((route) => !/\/(tags|comments)(\/|$)/.test(route.path));

  it(
    "are answered, charged, sent upstream and cached as the plain spelling",
    { timeout: 600_000 },
    async () => {
      const edge = testEdge({ vars: VARS });
      // Whatever the route, the upstream answers a success: pricing and caching then act.
      edge.upstream.answer((request) =>
        new URL(request.url).pathname.startsWith("/v3/")
          ? json(200, { result: request.method === "POST" ? [] : { resource: {} } })
          : json(200, { code: 200, status: "OK", result: {} }),
      );
      for (const route of FORWARDED) {
        const [spelled] = fc.sample(spelling(route.path), { numRuns: 1, seed: route.path.length });
        if (!spelled) throw new Error("no spelling");
        const plain = await send(edge.fetch, route, route.path);
        const other = await send(edge.fetch, route, spelled);
        const what = `${route.method} ${route.path} as ${spelled}`;
        expect(other.status, what).toBe(plain.status);
        expect(other.operation, what).toBe(plain.operation);
        if (plain.cached) {
          // The plain request stored the document: its spelling is the same key, a free hit.
          expect(other.cacheStatus, what).toMatch(/hit/);
          expect(other.charged, what).toBe(0);
          expect(other.upstream, what).toEqual([]);
        } else {
          expect(other.charged, what).toBe(plain.charged);
          expect(other.upstream, what).toEqual(plain.upstream);
        }
      }

      async function send(fetcher: Fetch, route: (typeof ROUTES)[number], path: string) {
        const tenant = await createTenant({ allowance: 1000 }, fetcher);
        const auth =
          route.api === "legacy"
            ? tenantAuth(tenant)
            : `Bearer ${
                platformTokenWithSecretSchema.parse(
                  await (
                    await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, {}, fetcher)
                  ).json(),
                ).token
              }`;
        const before = edge.upstream.requests.length;
        const res = await fetcher(buildRequest(route.method, path, { auth, body: route.body }));
        await res.arrayBuffer();
        const used = tenantSchema.parse(
          await (await admin("GET", `/admin/tenants/${tenant.id}`, undefined, fetcher)).json(),
        ).used;
        const usage = await admin("GET", `/admin/usage?tenant_id=${tenant.id}`, undefined, fetcher);
        const rows = (await usage.json<{ usage: { operation: string }[] }>()).usage;
        const cacheStatus = res.headers.get("Cache-Status") ?? "";
        return {
          status: res.status,
          charged: used,
          cacheStatus,
          cached: /stored/.test(cacheStatus),
          operation: rows.map((row) => row.operation).join(","),
          upstream: edge.upstream.requests.slice(before).map((r) => {
            const url = new URL(r.url);
            return `${r.method} ${url.pathname}${url.search}`;
          }),
        };
      }
    },
  );
});
