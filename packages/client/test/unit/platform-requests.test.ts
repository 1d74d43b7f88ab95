import { describe, expect, it } from "vitest";
import { createPlatformClient, type FetchLike } from "../../src/index";

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** A stand-in Platform that answers each request with `answer(sent)` and records what was sent. */
function fakePlatform(answer: (sent: Sent) => unknown) {
  const sent: Sent[] = [];
  const fetch: FetchLike = (input, init) => {
    const request = {
      method: init.method ?? "GET",
      url: new URL(input),
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    sent.push(request);
    return Promise.resolve(
      new Response(JSON.stringify({ result: answer(request) }), {
        headers: { "content-type": "application/json" },
      }),
    );
  };
  return { fetch, sent };
}

const page = (token: string, ips: string[]) => ({
  hits: ips.map((ip) => ({ host_v1: { resource: { ip }, extensions: {} } })),
  next_page_token: token,
  previous_page_token: "",
  query_duration_millis: 1,
  total_hits: 100,
});

describe("Platform request shapes", () => {
  it("sends an aggregate with the SDK's body names and a default of 50 buckets", async () => {
    const server = fakePlatform(() => ({
      buckets: [],
      total_count: 0,
      other_count: 0,
      is_more_than_total_hits: false,
      query_duration_millis: 1,
    }));
    const client = createPlatformClient({
      baseUrl: "https://api.platform.example/",
      token: "pat",
      organizationId: "org 1",
      fetch: server.fetch,
    });
    await client.aggregate("host.services.port");
    await client.aggregate("host.services.port", {
      query: "host.location.country_code: US",
      numberOfBuckets: 5,
      countByLevel: "host.services",
      filterByQuery: true,
    });
    const [first, second] = server.sent;
    expect(first?.url.href).toBe(
      "https://api.platform.example/v3/global/search/aggregate?organization_id=org+1",
    );
    expect(first?.headers.get("authorization")).toBe("Bearer pat");
    expect(first?.headers.get("content-type")).toBe("application/json");
    expect(first?.body).toEqual({ query: "", field: "host.services.port", number_of_buckets: 50 });
    expect(second?.body).toEqual({
      query: "host.location.country_code: US",
      field: "host.services.port",
      number_of_buckets: 5,
      count_by_level: "host.services",
      filter_by_query: true,
    });
  });

  it("names the organization in the path of account calls, with the usage query", async () => {
    const server = fakePlatform(() => ({
      start_time: "2025-01-01T00:00:00Z",
      end_time: "2025-01-02T00:00:00Z",
      periods: [],
      total_added: 0,
      total_consumed: 0,
      total_expired: 0,
      transaction_count: 0,
      credits_consumed_by_source: { api: 0, ui: 0 },
    }));
    const client = createPlatformClient({ baseUrl: "https://p.example", token: "pat", fetch: server.fetch });
    await client.accounts.memberCreditUsage("user/1", {
      organizationId: "o-1",
      granularity: "daily",
      startDate: "2025-01-01",
      includeConsumerBreakdown: true,
    });
    expect(server.sent[0]?.url.pathname).toBe(
      "/v3/accounts/organizations/o-1/members/user%2F1/credits/usage",
    );
    expect(Object.fromEntries(server.sent[0]?.url.searchParams ?? [])).toEqual({
      granularity: "daily",
      start_date: "2025-01-01",
      include_consumer_breakdown: "true",
    });
  });

  it("stops a search walk when a page token repeats, so a misbehaving server cannot make it loop", async () => {
    const server = fakePlatform(() => page("same", ["192.0.2.1"]));
    const client = createPlatformClient({ baseUrl: "https://p.example", token: "pat", fetch: server.fetch });
    const ips = [];
    for await (const hit of client.search("host.ip: *")) ips.push(hit.host_v1?.resource.ip);
    expect(ips).toEqual(["192.0.2.1", "192.0.2.1"]);
    expect(server.sent.map((s) => (s.body as { page_token?: string }).page_token)).toEqual([
      undefined,
      "same",
    ]);
  });

  it("refuses a 2xx body that is not the asset shape", async () => {
    const server = fakePlatform(() => ({ resource: "not an object" }));
    const client = createPlatformClient({ baseUrl: "https://p.example", token: "pat", fetch: server.fetch });
    await expect(client.hosts.view("192.0.2.1")).rejects.toThrow(/does not match the expected shape/);
    expect(server.sent[0]?.headers.get("accept")).toBe("application/vnd.censys.api.v3.host.v1+json");
  });
});
