import type { HostHit, HostsAggregateResult, ReportResponse, Account, BulkResponse } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/run";
import { SEEDED_CERTIFICATES } from "../../../../apps/origin/test/support/small-dataset";
import { cli, credentials } from "./support/memory-io";
import { faultyFetch, jsonResponse } from "./support/recording-fetch";
import { ADMIN_TOKEN, createTenant, edgeClient, seedOrigin } from "./support/stack";

let tenant: Awaited<ReturnType<typeof createTenant>>;
let creds: string[];
beforeAll(async () => {
  await seedOrigin();
  tenant = await createTenant({ email: "cli@example.com" });
  creds = credentials(tenant);
});

describe("scangate credentials and settings", () => {
  it("takes the URL and credentials from flags", async () => {
    const run = await cli(["account", "--url", "http://edge.test/api", ...creds], { env: {} });
    expect(run.code).toBe(0);
    expect(run.json<Account>().email).toBe("cli@example.com");
  });

  it("takes them from SCANGATE_* variables", async () => {
    const run = await cli(["account"], {
      env: { SCANGATE_API_ID: tenant.api_id, SCANGATE_API_SECRET: tenant.api_secret },
    });
    expect(run.json<Account>().email).toBe("cli@example.com");
  });

  it("falls back to .scangate/local.env as pnpm start writes it", async () => {
    const localEnv = {
      EDGE_URL: "http://edge.test",
      DEMO_API_ID: tenant.api_id,
      DEMO_API_SECRET: tenant.api_secret,
    };
    const run = await cli(["account"], { env: { SCANGATE_URL: "" }, localEnv });
    expect(run.code).toBe(0);
    expect(run.json<Account>().email).toBe("cli@example.com");
  });

  it("exits 2 and says how to set the URL when there is none", async () => {
    const run = await cli(["account", ...creds], { env: { SCANGATE_URL: "" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no service URL");
  });

  it("exits 4 on a wrong secret, and hints at credentials when none were given", async () => {
    const wrong = await cli(["account", "--api-id", tenant.api_id, "--secret", "wrong"]);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain("failed with 403");
    const none = await cli(["view", "hosts", "1.1.1.1"]);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain("no credentials were given");
  });
});

describe("scangate commands against the edge", () => {
  it("search hosts prints every host of every page as one JSON array", async () => {
    const { total } = await edgeClient(tenant).hosts.searchPage(undefined, { perPage: 100 });
    const run = await cli(["search", "hosts", "--per-page", "2", ...creds]);
    expect(run.code).toBe(0);
    const hits = run.json<HostHit[]>();
    expect(hits).toHaveLength(total);
    expect(new Set(hits.map((h) => h.ip)).size).toBe(total);
  });

  it("search --limit with --csv prints a header and that many rows", async () => {
    const run = await cli([
      "search",
      "ipv4",
      "*",
      "--fields",
      "ip,location.country",
      "--limit",
      "3",
      "--csv",
      ...creds,
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("ip,location.country");
    expect(lines).toHaveLength(4);
  });

  it("search exits 3 with the parse error for a bad query", async () => {
    const run = await cli(["search", "ipv4", "location.country: (US", ...creds]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("query could not be parsed");
  });

  it("view prints a document and exits 5 for one that does not exist", async () => {
    const [sha256 = ""] = SEEDED_CERTIFICATES;
    const found = await cli(["view", "certificates", sha256, ...creds]);
    expect(found.code).toBe(0);
    expect(found.json<{ parsed: { fingerprint_sha256: string } }>().parsed.fingerprint_sha256).toBe(sha256);
    const missing = await cli(["view", "ipv4", "203.0.113.77", ...creds]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain("failed with 404");
  });

  it("view hosts takes --at-time", async () => {
    const run = await cli(["view", "hosts", "1.1.1.1", "--at-time", "2024-05-10T00:00:00Z", ...creds]);
    expect(run.code).toBe(0);
    expect(run.json<{ services: unknown[] }>().services).toHaveLength(2);
  });

  it("report and aggregate print JSON, or key/count rows with --csv", async () => {
    const report = await cli(["report", "ipv4", "*", "location.country_code", ...creds]);
    expect(report.json<ReportResponse>().results.find((b) => b.key === "US")?.doc_count).toBeGreaterThan(0);
    const reportCsv = await cli(["report", "ipv4", "*", "location.country_code", "--csv", ...creds]);
    expect(reportCsv.stdout.split("\r\n")[0]).toBe("key,doc_count");
    const aggregate = await cli(["aggregate", "services.port", "location.country_code: CH", ...creds]);
    expect(aggregate.json<HostsAggregateResult>().buckets).toEqual([{ key: "53", count: 1 }]);
    const aggregateCsv = await cli([
      "aggregate",
      "services.port",
      "location.country_code: CH",
      "--csv",
      ...creds,
    ]);
    expect(aggregateCsv.stdout).toBe("key,count\r\n53,1\r\n");
  });

  it("bulk reads fingerprints from stdin and prints one key for each", async () => {
    const unknown = Array.from({ length: 57 }, (_, i) => i.toString(16).padStart(64, "e"));
    const stdin = [...SEEDED_CERTIFICATES, ...unknown].join("\n");
    const run = await cli(["bulk", ...creds], { stdin });
    expect(run.code).toBe(0);
    expect(Object.keys(run.json<BulkResponse>())).toHaveLength(60);
  });

  it("notes each retry on stderr and still succeeds", async () => {
    const { fetch } = faultyFetch([jsonResponse(503, { error_code: 503, error: "unavailable" })]);
    const run = await cli(["account", ...creds], { fetch });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/failed with 503: unavailable; retrying in \d+\.\d s/);
    const quiet = await cli(["account", "--quiet", ...creds], {
      fetch: faultyFetch([jsonResponse(503, { error_code: 503, error: "x" })]).fetch,
    });
    expect(quiet.stderr).toBe("");
  });

  it("exits 6 when the quota is spent", async () => {
    const small = await createTenant({ allowance: 1 });
    expect((await cli(["view", "hosts", "1.1.1.1", ...credentials(small)])).code).toBe(0);
    const run = await cli(["view", "hosts", "8.8.8.8", ...credentials(small)]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("quota");
  });

  it("exits 7 when the service cannot be reached", async () => {
    const unreachable = () => Promise.reject(new TypeError("fetch failed"));
    const run = await cli(["account", "--no-retry", ...creds], { fetch: unreachable });
    expect(run.code).toBe(7);
  });
});

describe("scangate usage", () => {
  it.each(COMMANDS.map((command) => [command.name]))(
    "%s --help prints its usage and exits 0",
    async (name) => {
      const run = await cli([...name.split(" "), "--help"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`usage: scangate ${name}`);
      expect(run.stdout).toContain("--url");
    },
  );

  it("--help lists every command", async () => {
    const run = await cli(["--help"]);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(command.name);
  });

  it.each([
    [["frobnicate"], "unknown command"],
    [["view", "ipv4"], "missing document id"],
    [["view", "planets", "x"], "unknown index"],
    [["search", "hosts", "--limit", "abc"], "--limit must be an integer"],
    [["search", "ipv4", "*", "--bogus"], "unknown option --bogus"],
    [["account", "extra"], "unexpected argument"],
    [["tenants"], "tenants needs a subcommand"],
    [["tenants", "list"], "no admin token"],
  ])("exits 2 for %j and says %s", async (argv, message) => {
    const run = await cli([...argv, ...creds]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("--help");
    expect(run.stdout).toBe("");
  });
});

describe("scangate tenants", () => {
  it("creates, lists, shows, updates, rotates, disables and deletes a tenant", async () => {
    const admin = ["--admin-token", ADMIN_TOKEN];
    const created = await cli(["tenants", "create", "--name", "CLI team", "--allowance", "75", ...admin]);
    expect(created.code).toBe(0);
    const tenantRow = created.json<{ id: string; api_id: string; api_secret: string; allowance: number }>();
    expect(tenantRow.allowance).toBe(75);

    const list = await cli(["tenants", "list", "--csv"], {
      env: { SCANGATE_URL: "http://edge.test", SCANGATE_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    expect(list.code).toBe(0);
    expect(list.stdout.split("\r\n")[0]).toContain("id,name");
    expect(list.stdout).toContain(tenantRow.id);

    expect((await cli(["tenants", "show", tenantRow.id, ...admin])).json<{ name: string }>().name).toBe(
      "CLI team",
    );
    const updated = await cli([
      "tenants",
      "update",
      tenantRow.id,
      "--allowance",
      "80",
      "--used",
      "0",
      ...admin,
    ]);
    expect(updated.json<{ allowance: number }>().allowance).toBe(80);
    const rotated = await cli(["tenants", "rotate", tenantRow.id, ...admin]);
    expect(rotated.json<{ api_secret: string }>().api_secret).not.toBe(tenantRow.api_secret);
    expect(
      (await cli(["tenants", "disable", tenantRow.id], { localEnv: { ADMIN_TOKEN } })).json<{
        disabled: boolean;
      }>().disabled,
    ).toBe(true);
    expect(
      (await cli(["tenants", "update", tenantRow.id, "--enable", ...admin])).json<{ disabled: boolean }>()
        .disabled,
    ).toBe(false);
    expect((await cli(["tenants", "delete", tenantRow.id, ...admin])).code).toBe(0);
    const gone = await cli(["tenants", "show", tenantRow.id, ...admin]);
    expect(gone.code).toBe(5);
  });

  it("issues, shows and revokes a tenant's Platform token", async () => {
    const admin = ["--admin-token", ADMIN_TOKEN];
    const created = await cli(["tenants", "create", "--name", "CLI platform", ...admin]);
    const { id } = created.json<{ id: string }>();
    const issued = await cli(["tenants", "token", id, "--grace-seconds", "0", ...admin]);
    expect(issued.code).toBe(0);
    const token = issued.json<{ token: string; token_id: string }>();
    expect(token.token).toMatch(/^sgt_/);
    const status = await cli(["tenants", "token-status", id, ...admin]);
    expect(status.json<{ token_id: string }>().token_id).toBe(token.token_id);
    expect(status.stdout).not.toContain(token.token);
    const revoked = await cli(["tenants", "revoke-token", id, ...admin]);
    expect(revoked.json<{ revoked: number }>()).toEqual({ tenant_id: id, revoked: 1 });
    expect((await cli(["tenants", "token", id, "--grace-seconds", "-1", ...admin])).code).toBe(2);
    expect((await cli(["tenants", "token", "tnt_doesnotexist", ...admin])).code).toBe(5);
  });

  it("exits 4 for a wrong admin token, 3 for a change the edge refuses, 2 for a bad flag", async () => {
    expect((await cli(["tenants", "list", "--admin-token", "nope"])).code).toBe(4);
    const refused = await cli(["tenants", "create", "--name", " ", "--admin-token", ADMIN_TOKEN]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("name");
    const bad = await cli([
      "tenants",
      "create",
      "--name",
      "x",
      "--period",
      "weekly",
      "--admin-token",
      ADMIN_TOKEN,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--period must be one of daily, monthly, never");
  });
});
