import { beforeAll, describe, expect, it } from "vitest";
import { V3_MEDIA_TYPES } from "@scangate/core";
import {
  AuthenticationError,
  BadRequestError,
  InvalidQueryError,
  NotFoundError,
  QuotaExceededError,
  createClient,
  type FetchLike,
} from "../../src/index";
import {
  CURRENT_SINCE,
  HISTORY_SINCE,
  SEEDED_CERTIFICATES,
} from "../../../../apps/origin/test/support/small-dataset";
import { recordingFetch } from "./support/recording-fetch";
import {
  EDGE_URL,
  adminClient,
  createPlatformTenant,
  edgeFetch,
  edgePlatform,
  noWait,
  originPlatform,
  originPlatformAccount,
  seedOrigin,
  serveWebsiteOn443,
} from "./support/stack";

/** Passes requests to the edge and keeps each one's Accept and Authorization headers. */
function headerRecorder(inner: FetchLike = edgeFetch) {
  const seen: { url: string; method: string; accept: string | undefined; auth: string | undefined }[] = [];
  const fetch: FetchLike = (input, init) => {
    const headers = new Headers(init.headers);
    seen.push({
      url: input,
      method: init.method ?? "GET",
      accept: headers.get("accept") ?? undefined,
      auth: headers.get("authorization") ?? undefined,
    });
    return inner(input, init);
  };
  return { fetch, seen };
}

const BEFORE_CURRENT = new Date(Date.parse(CURRENT_SINCE) - 86_400_000);

let token: string;
let platform: ReturnType<typeof edgePlatform>;
beforeAll(async () => {
  await seedOrigin();
  ({ token } = await createPlatformTenant({ allowance: 10_000 }));
  platform = edgePlatform(token);
});

describe("client.platform lookups through the edge", () => {
  it("views a host with the SDK's request shape: bearer token, vendor Accept, organization_id", async () => {
    const recorder = headerRecorder();
    const client = edgePlatform(token, {
      fetch: recorder.fetch,
      organizationId: "any-org-the-edge-replaces",
    });
    const host = await client.hosts.view("1.1.1.1");
    expect(host.resource.ip).toBe("1.1.1.1");
    expect(host.resource.services?.map((s) => s.port)).toEqual([53, 80, 443]);
    expect(recorder.seen).toHaveLength(1);
    const [call] = recorder.seen;
    expect(call?.method).toBe("GET");
    expect(call?.accept).toBe(V3_MEDIA_TYPES.host);
    expect(call?.auth).toBe(`Bearer ${token}`);
    const url = new URL(call?.url ?? "");
    expect(url.pathname).toBe("/v3/global/asset/host/1.1.1.1");
    expect(url.searchParams.get("organization_id")).toBe("any-org-the-edge-replaces");
  });

  it("views a host as it was at a Date or an RFC 3339 string", async () => {
    expect(BEFORE_CURRENT.getTime()).toBeGreaterThan(Date.parse(HISTORY_SINCE));
    const then = await platform.hosts.view("1.1.1.1", { atTime: BEFORE_CURRENT });
    expect(then.resource.services?.map((s) => s.port)).toEqual([53, 80]);
    const byString = await platform.hosts.view("1.1.1.1", { atTime: BEFORE_CURRENT.toISOString() });
    expect(byString.resource.services?.map((s) => s.port)).toEqual([53, 80]);
  });

  it("reads hosts in bulk in the order asked, leaving out unknown ones, 100 ids per request", async () => {
    const recorder = recordingFetch();
    const client = edgePlatform(token, { fetch: recorder.fetch });
    const unknown = Array.from({ length: 120 }, (_, i) => `198.51.100.${i + 1}`);
    const found = await client.hosts.bulk(["8.8.8.8", ...unknown, "1.1.1.1", "8.8.8.8"]);
    expect(found.map((h) => h.resource.ip)).toEqual(["8.8.8.8", "1.1.1.1"]);
    const posts = recorder.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(2);
    expect((posts[0]?.body as { host_ids: string[] }).host_ids).toHaveLength(100);
    // The repeated 8.8.8.8 is asked once: each asked id may be charged.
    expect((posts[1]?.body as { host_ids: string[] }).host_ids).toEqual([...unknown.slice(99), "1.1.1.1"]);
  });

  it("reads hosts in bulk at a past instant", async () => {
    const [host] = await platform.hosts.bulk(["1.1.1.1"], { atTime: BEFORE_CURRENT });
    expect(host?.resource.services?.map((s) => s.port)).toEqual([53, 80]);
  });

  it("reads a host's timeline between two instants, newest event first", async () => {
    const recorder = headerRecorder();
    const client = edgePlatform(token, { fetch: recorder.fetch });
    const timeline = await client.hosts.timeline("1.1.1.1", {
      startTime: new Date(),
      endTime: new Date(Date.parse(HISTORY_SINCE) - 86_400_000),
    });
    expect(timeline.events.length).toBeGreaterThan(0);
    const times = timeline.events.map((event) => Date.parse(event.resource.event_time ?? ""));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(recorder.seen[0]?.accept).toBe(V3_MEDIA_TYPES.hostTimeline);
  });

  it("views a certificate and reads certificates in bulk", async () => {
    const [a, b] = SEEDED_CERTIFICATES as [string, string];
    const cert = await platform.certificates.view(a);
    expect(cert.resource.fingerprint_sha256).toBe(a);
    const found = await platform.certificates.bulk([b, "f".repeat(64), a]);
    expect(found.map((c) => c.resource.fingerprint_sha256)).toEqual([b, a]);
  });

  it("views a web property and reads web properties in bulk", async () => {
    const example = await serveWebsiteOn443("example.com", "Example Domain");
    const google = await serveWebsiteOn443("dns.google");
    const property = await platform.webproperties.view(example);
    expect(property.resource).toMatchObject({ hostname: "example.com", port: 443 });
    expect(property.resource.endpoints?.[0]?.http?.html_title).toBe("Example Domain");
    const found = await platform.webproperties.bulk([google, "nowhere.invalid:443", example]);
    expect(found.map((p) => `${p.resource.hostname}:${p.resource.port}`)).toEqual([google, example]);
  });
});

describe("client.platform search through the edge", () => {
  it("follows next_page_token over every page, and stops at maxPages or maxResults", async () => {
    const query = "host.services.port: 53";
    const first = await platform.searchPage(query, { pageSize: 2 });
    expect(first.total_hits).toBeGreaterThan(2);
    expect(first.next_page_token).not.toBe("");
    const all = [];
    for await (const hit of platform.search(query, { pageSize: 2 })) all.push(hit.host_v1?.resource.ip);
    expect(all).toHaveLength(first.total_hits);
    expect(new Set(all).size).toBe(all.length);

    const pages = [];
    for await (const page of platform.searchPages(query, { pageSize: 1, maxPages: 2 })) pages.push(page);
    expect(pages).toHaveLength(2);
    const limited = [];
    for await (const hit of platform.search(query, { pageSize: 2, maxResults: 3 })) limited.push(hit);
    expect(limited).toHaveLength(3);
  });

  it("starts from a page token", async () => {
    const query = "host.services.port: 53";
    const first = await platform.searchPage(query, { pageSize: 1 });
    const second = await platform.searchPage(query, { pageSize: 1, pageToken: first.next_page_token });
    expect(second.hits[0]?.host_v1?.resource.ip).not.toBe(first.hits[0]?.host_v1?.resource.ip);
  });

  it("aggregates hosts by a field", async () => {
    const result = await platform.aggregate("host.services.port", { query: "host.services.port: 53" });
    const dns = result.buckets.find((bucket) => bucket.key === "53");
    expect(dns?.count).toBeGreaterThan(0);
    expect(result.total_count).toBeGreaterThanOrEqual(dns?.count ?? 0);
  });

  it("converts a legacy query to CenQL", async () => {
    const [converted] = await platform.convert(["services.port: 22"]);
    expect(converted?.original_query).toBe("services.port: 22");
    expect(converted?.converted_query).toContain("host.services.port");
  });
});

describe("client.platform accounts", () => {
  it("reads the organization's credits and usage through the edge with its organization id", async () => {
    const { organizationId } = originPlatformAccount();
    const client = edgePlatform(token, { organizationId });
    const credits = await client.accounts.credits();
    expect(credits.uid).toBe(organizationId);
    expect(credits.balance).toBeGreaterThan(0);
    const usage = await client.accounts.creditUsage({ granularity: "daily" });
    expect(usage.granularity).toBe("daily");
    expect(usage.periods.length).toBeGreaterThan(0);
    const organization = await client.accounts.organization({ includeMemberCounts: true });
    expect(organization.uid).toBe(organizationId);
  });

  it("refuses an account call without an organization before sending anything", () => {
    const recorder = recordingFetch();
    const client = edgePlatform(token, { fetch: recorder.fetch });
    expect(() => client.accounts.credits()).toThrow(/organizationId/);
    expect(recorder.requests).toHaveLength(0);
  });

  it("works straight against the origin with its personal access token", async () => {
    const origin = originPlatform();
    expect((await origin.hosts.view("8.8.8.8")).resource.ip).toBe("8.8.8.8");
    const credits = await origin.accounts.credits();
    expect(credits.uid).toBe(originPlatformAccount().organizationId);
  });

  it("is also client.platform of createClient, beside the legacy API", async () => {
    const { tenant, token: own } = await createPlatformTenant();
    const client = createClient({
      baseUrl: EDGE_URL,
      apiId: tenant.api_id,
      apiSecret: tenant.api_secret,
      platformToken: own,
      fetch: edgeFetch,
      sleep: noWait,
    });
    // A search page is charged on every call (a lookup another test cached would be free).
    const page = await client.platform.searchPage("host.ip: 1.1.1.1", { pageSize: 1 });
    expect(page.hits).toHaveLength(1);
    const before = (await client.account()).quota.used;
    expect(before).toBe(1);
    await client.platform.searchPage("host.ip: 1.1.1.1", { pageSize: 1 });
    // One ledger: Platform credits are spent from the same counter as legacy quota.
    expect((await client.account()).quota.used).toBe(2);
  });
});

describe("client.platform errors (problem+json)", () => {
  it("throws AuthenticationError for a bad token, with the problem's detail", async () => {
    const error = await edgePlatform("sgt_not-a-real-token")
      .hosts.view("1.1.1.1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).body).toMatchObject({ title: "Unauthorized", status: 401 });
    expect((error as Error).message).toMatch(
      /^GET \/v3\/global\/asset\/host\/1\.1\.1\.1 failed with 401: Unauthorized: /,
    );
  });

  it("stops working once the admin revokes the tenant's token", async () => {
    const { tenant, token: own } = await createPlatformTenant();
    const client = edgePlatform(own);
    expect((await client.hosts.view("1.1.1.1")).resource.ip).toBe("1.1.1.1");
    await adminClient().tenants.revokePlatformToken(tenant.id);
    await expect(client.hosts.view("1.1.1.1")).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("throws NotFoundError for an unknown host, certificate or web property", async () => {
    const host = await platform.hosts.view("203.0.113.9").catch((e: unknown) => e);
    expect(host).toBeInstanceOf(NotFoundError);
    expect((host as Error).message).toContain("failed with 404: Not Found: Host 203.0.113.9 not found.");
    await expect(platform.certificates.view("f".repeat(64))).rejects.toBeInstanceOf(NotFoundError);
    await expect(platform.webproperties.view("nowhere.invalid:443")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("throws InvalidQueryError with the position for CenQL that does not parse", async () => {
    const error = await platform.searchPage("host.services.port: (22").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as InvalidQueryError).status).toBe(400);
    expect((error as InvalidQueryError).position).toEqual(expect.any(Number));
    expect((error as Error).message).toMatch(
      /failed with 400: Bad Request: Invalid query: .*at position \d+/,
    );
    const unknownField = await platform.aggregate("host.nope").catch((e: unknown) => e);
    expect(unknownField).toBeInstanceOf(InvalidQueryError);
    expect((unknownField as Error).message).toContain("host.nope");
  });

  it("throws BadRequestError naming the input for a malformed id", async () => {
    const error = await platform.hosts.view("not-an-ip").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toContain("path.host_id");
  });

  it("throws QuotaExceededError when the tenant's credits are spent, and does not retry", async () => {
    const { token: small } = await createPlatformTenant({ allowance: 1 });
    const recorder = recordingFetch();
    const client = edgePlatform(small, { fetch: recorder.fetch });
    // Search pages, charged on every call (a cached lookup would be free and never run out).
    await client.searchPage("host.ip: 1.1.1.1", { pageSize: 1 });
    const error = await client.searchPage("host.ip: 1.1.1.1", { pageSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect((error as QuotaExceededError).status).toBe(422);
    expect((error as Error).message).toContain("insufficient balance");
    expect(recorder.requests).toHaveLength(2);
  });
});
