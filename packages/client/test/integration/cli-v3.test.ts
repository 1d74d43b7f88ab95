import type {
  Account,
  V3CertificateAsset,
  V3CreditUsageReport,
  V3HostAsset,
  V3OrganizationCredits,
  V3OrganizationDetails,
  V3SearchAggregateResponse,
  V3SearchQueryHit,
  V3WebpropertyAsset,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { CURRENT_SINCE, SEEDED_CERTIFICATES } from "../../../../apps/origin/test/support/small-dataset";
import { cli, credentials } from "./support/memory-io";
import { recordingFetch } from "./support/recording-fetch";
import {
  adminClient,
  createPlatformTenant,
  edgePlatform,
  originPlatformAccount,
  seedOrigin,
  serveWebsiteOn443,
} from "./support/stack";

let token: string;
let tenant: Awaited<ReturnType<typeof createPlatformTenant>>["tenant"];
/** `--api v3 --token <the tenant's Platform token>`. */
let v3: string[];
beforeAll(async () => {
  await seedOrigin();
  ({ tenant, token } = await createPlatformTenant({ allowance: 10_000, email: "cli-v3@example.com" }));
  v3 = ["--api", "v3", "--token", token];
});

const BEFORE_CURRENT = new Date(Date.parse(CURRENT_SINCE) - 86_400_000).toISOString();

describe("scangate --api v3: settings", () => {
  it("takes the API and token from SCANGATE_API and SCANGATE_PLATFORM_TOKEN", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1"], {
      env: { SCANGATE_API: "v3", SCANGATE_PLATFORM_TOKEN: token },
    });
    expect(run.code).toBe(0);
    expect(run.json<V3HostAsset>().resource.ip).toBe("1.1.1.1");
  });

  it("takes the token from .scangate/local.env as pnpm start writes it", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1", "--api", "v3"], {
      env: { SCANGATE_URL: "" },
      localEnv: { EDGE_URL: "http://edge.test", DEMO_PLATFORM_TOKEN: token },
    });
    expect(run.code).toBe(0);
    expect(run.json<V3HostAsset>().resource.ip).toBe("1.1.1.1");
  });

  it("lets --api legacy override SCANGATE_API=v3", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1", "--api", "v2", ...credentials(tenant)], {
      env: { SCANGATE_API: "v3" },
    });
    expect(run.code).toBe(0);
    expect(run.json<{ ip: string }>().ip).toBe("1.1.1.1");
  });

  it("exits 2 for an unknown API, naming where it came from", async () => {
    const flag = await cli(["view", "hosts", "1.1.1.1", "--api", "v4"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--api must be v3 or legacy (v1, v2), got "v4"');
    const env = await cli(["account"], { env: { SCANGATE_API: "platfrom" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("SCANGATE_API must be v3");
  });
});

describe("scangate --api v3: documents", () => {
  it("views a host, and a host as it was at --at-time", async () => {
    const now = await cli(["view", "hosts", "1.1.1.1", ...v3]);
    expect(now.code).toBe(0);
    expect(now.json<V3HostAsset>().resource.services?.map((s) => s.port)).toEqual([53, 80, 443]);
    const then = await cli(["view", "host", "1.1.1.1", "--at-time", BEFORE_CURRENT, ...v3]);
    expect(then.code).toBe(0);
    expect(then.json<V3HostAsset>().resource.services?.map((s) => s.port)).toEqual([53, 80]);
  });

  it("views a certificate and a web property", async () => {
    const [cert] = SEEDED_CERTIFICATES as [string];
    const certificate = await cli(["view", "certificates", cert, ...v3]);
    expect(certificate.code).toBe(0);
    expect(certificate.json<V3CertificateAsset>().resource.fingerprint_sha256).toBe(cert);
    const id = await serveWebsiteOn443("example.com");
    const property = await cli(["view", "webproperties", id, ...v3]);
    expect(property.code).toBe(0);
    expect(property.json<V3WebpropertyAsset>().resource).toMatchObject({
      hostname: "example.com",
      port: 443,
    });
  });

  it("reads hosts in bulk from stdin, naming the ids not found on stderr", async () => {
    const run = await cli(["bulk", "hosts", ...v3], { stdin: "8.8.8.8\n203.0.113.77, 1.1.1.1\n" });
    expect(run.code).toBe(0);
    expect(run.json<V3HostAsset[]>().map((h) => h.resource.ip)).toEqual(["8.8.8.8", "1.1.1.1"]);
    expect(run.stderr).toBe("scangate: 1 of 3 not found: 203.0.113.77\n");
    const quiet = await cli(["bulk", "hosts", "203.0.113.77", "-q", ...v3]);
    expect(quiet.json<V3HostAsset[]>()).toEqual([]);
    expect(quiet.stderr).toBe("");
  });

  it("reads certificates in bulk (the default kind), and hosts in bulk at --at-time", async () => {
    const [a, b] = SEEDED_CERTIFICATES as [string, string];
    const certs = await cli(["bulk", b, a, ...v3]);
    expect(certs.code).toBe(0);
    expect(certs.json<V3CertificateAsset[]>().map((c) => c.resource.fingerprint_sha256)).toEqual([b, a]);
    const then = await cli(["bulk", "hosts", "1.1.1.1", "--at-time", BEFORE_CURRENT, ...v3]);
    expect(then.json<V3HostAsset[]>()[0]?.resource.services?.map((s) => s.port)).toEqual([53, 80]);
  });
});

describe("scangate --api v3: search, aggregate, credits", () => {
  it("searches CenQL over every page, or --pages of --page-size", async () => {
    const query = "host.services.port: 53";
    const total = (await edgePlatform(token).searchPage(query, { pageSize: 1 })).total_hits;
    expect(total).toBeGreaterThan(2);
    const all = await cli(["search", query, "--page-size", "2", ...v3]);
    expect(all.code).toBe(0);
    const ips = all.json<V3SearchQueryHit[]>().map((hit) => hit.host_v1?.resource.ip);
    expect(ips).toHaveLength(total);
    expect(new Set(ips).size).toBe(total);

    const recorder = recordingFetch();
    const two = await cli(["search", query, "--page-size", "1", "--pages", "2", ...v3], {
      fetch: recorder.fetch,
    });
    expect(two.json<V3SearchQueryHit[]>()).toHaveLength(2);
    expect(recorder.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/v3/global/search/query",
      "/v3/global/search/query",
    ]);
    expect(recorder.requests[0]?.body).toEqual({ query, page_size: 1 });
    expect((recorder.requests[1]?.body as { page_token?: string }).page_token).toEqual(expect.any(String));

    const limited = await cli(["search", query, "--limit", "1", "--csv", ...v3]);
    const lines = limited.stdout.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("host_v1.resource.ip");
  });

  it("aggregates by a CenQL field, as JSON or key,count CSV", async () => {
    const json = await cli(["aggregate", "host.services.port", "host.services.port: 53", ...v3]);
    expect(json.code).toBe(0);
    const result = json.json<V3SearchAggregateResponse>();
    const dns = result.buckets.find((bucket) => bucket.key === "53");
    expect(dns?.count).toBeGreaterThan(0);
    const csv = await cli(["aggregate", "host.services.port", "--buckets", "2", "--csv", ...v3]);
    const lines = csv.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("key,count");
    expect(lines.length).toBeLessThanOrEqual(3);
  });

  it("shows the organization's credits and usage with --org, and the tenant's allowance on the legacy API", async () => {
    const { organizationId } = originPlatformAccount();
    const balance = await cli(["credits", "--org", organizationId, ...v3]);
    expect(balance.code).toBe(0);
    expect(balance.json<V3OrganizationCredits>()).toMatchObject({ uid: organizationId });
    const usage = await cli(["credits", "--usage", "--granularity", "daily", ...v3], {
      env: { SCANGATE_ORGANIZATION_ID: organizationId },
    });
    expect(usage.code).toBe(0);
    expect(usage.json<V3CreditUsageReport>().granularity).toBe("daily");
    const organization = await cli(["account", "--org", organizationId, ...v3]);
    expect(organization.json<V3OrganizationDetails>().uid).toBe(organizationId);

    // Platform credits and legacy queries share the tenant's one allowance.
    const { quota } = (await cli(["account", ...credentials(tenant)])).json<Account>();
    const legacy = await cli(["credits", ...credentials(tenant)]);
    expect(legacy.code).toBe(0);
    expect(legacy.json()).toEqual({
      allowance: 10_000,
      used: quota.used,
      remaining: 10_000 - quota.used,
      resets_at: quota.resets_at,
    });
    expect(quota.used).toBeGreaterThan(0);
  });
});

describe("scangate --api v3: errors", () => {
  it("exits 4 for a bad token with the problem's detail", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1", "--api", "v3", "--token", "sgt_wrong"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^scangate: GET \/v3\/global\/asset\/host\/1\.1\.1\.1 failed with 401: Unauthorized: /,
    );
    expect(run.stdout).toBe("");
  });

  it("exits 4 and says how to get a token when none was given", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1", "--api", "v3"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("no Platform token was given");
    expect(run.stderr).toContain("scangate tenants token");
  });

  it("exits 4 once the admin revokes the token", async () => {
    const { tenant: other, token: own } = await createPlatformTenant();
    expect((await cli(["view", "hosts", "1.1.1.1", "--api", "v3", "--token", own])).code).toBe(0);
    await adminClient().tenants.revokePlatformToken(other.id);
    expect((await cli(["view", "hosts", "1.1.1.1", "--api", "v3", "--token", own])).code).toBe(4);
  });

  it("exits 5 for an unknown host, certificate or web property", async () => {
    const host = await cli(["view", "hosts", "203.0.113.9", ...v3]);
    expect(host.code).toBe(5);
    expect(host.stderr).toContain("failed with 404: Not Found: Host 203.0.113.9 not found.");
    expect((await cli(["view", "certificates", "f".repeat(64), ...v3])).code).toBe(5);
    expect((await cli(["view", "webproperties", "nowhere.invalid:443", ...v3])).code).toBe(5);
  });

  it("exits 3 for CenQL that does not parse, saying where", async () => {
    const run = await cli(["search", "host.services.port: (22", ...v3]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/failed with 400: Bad Request: Invalid query: .*at position \d+/);
    const field = await cli(["aggregate", "host.nope", ...v3]);
    expect(field.code).toBe(3);
    expect(field.stderr).toContain("host.nope");
  });

  it("exits 6 when the tenant's credits are spent", async () => {
    const { token: small } = await createPlatformTenant({ allowance: 1 });
    // A search page is charged on every call (a cached lookup would be free and never run out).
    const args = ["search", "host.ip: 1.1.1.1", "--pages", "1", "--api", "v3", "--token", small];
    expect((await cli(args)).code).toBe(0);
    const spent = await cli(args);
    expect(spent.code).toBe(6);
    expect(spent.stderr).toContain("failed with 422");
    expect(spent.stderr).toContain("insufficient balance");
  });

  it.each([
    [["credits", "--api", "v3"], "pass --org ID or set SCANGATE_ORGANIZATION_ID"],
    [["account", "--api", "v3"], "pass --org ID or set SCANGATE_ORGANIZATION_ID"],
    [["credits", "--usage"], "--usage needs --api v3"],
    [["credits", "--api", "v3", "--org", "o", "--start", "2025-02-30", "--usage"], "--start must be a date"],
    [["credits", "--api", "v3", "--org", "o", "--granularity", "daily"], "go with --usage"],
    [["view", "ipv4", "1.1.1.1", "--api", "v3"], "v3 calls them hosts"],
    [["view", "webproperties", "example.com:443"], "add --api v3"],
    [
      ["view", "certificates", "a".repeat(64), "--api", "v3", "--at-time", "2024-01-01T00:00:00Z"],
      "hosts and web properties only",
    ],
    [["bulk", "hosts", "1.1.1.1"], "bulk hosts needs --api v3"],
    [["search", "--api", "v3"], "missing CenQL query"],
    [["search", "hosts", "host.services.port: 22", "--api", "v3"], "search takes one CenQL query"],
    [["search", "hosts", "--page-token", "x"], "--page-token needs --api v3"],
    [
      ["search", "host.services.port: 22", "--api", "v3", "--page-size", "101"],
      "--page-size must be an integer 1..100",
    ],
    [["aggregate", "services.port", "--filter-by-query"], "need --api v3"],
  ])("exits 2 for %j and says %s", async (argv, message) => {
    const run = await cli([...argv, "--token", token]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });
});
