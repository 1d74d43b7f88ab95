// The official Censys Python client, unmodified, against the running origin and edge:
// apps/origin/compat/censys_client_check.py, run with the Debian Python that has python3-censys.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createAdminClient } from "@scangate/client";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { REPO_ROOT, type RunningSystem, startSystem } from "./support/system";
import { censysPython, describeWith, SYSTEM_PYTHON } from "./support/system-deps";

const CHECK_SCRIPT = path.join(REPO_ROOT, "apps", "origin", "compat", "censys_client_check.py");
const OWN_ACCOUNT_CHECK = "account() of every client is the expected login and allowance";

/** Every check the script declares; a passing run prints an `ok` line for each. */
function declaredChecks(): string[] {
  return [...readFileSync(CHECK_SCRIPT, "utf8").matchAll(/@check\(\s*"([^"]+)"/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The checks of routes with no Platform equivalent (declared with a `platform_gap` call). */
function platformGapChecks(): string[] {
  return [...readFileSync(CHECK_SCRIPT, "utf8").matchAll(/@check\(\s*"([^"]+)",\s*platform_gap=/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The origin's own account for `apiId`, as apps/origin/wrangler.jsonc declares it (ORIGIN_ACCOUNTS). */
function configuredOriginAccount(apiId: string): { login: string; allowance: number } {
  const text = readFileSync(path.join(REPO_ROOT, "apps", "origin", "wrangler.jsonc"), "utf8").replace(
    /^\s*\/\/.*$/gm,
    "",
  );
  const config = JSON.parse(text) as { vars: { ORIGIN_ACCOUNTS: string } };
  const accounts = JSON.parse(config.vars.ORIGIN_ACCOUNTS) as {
    api_id: string;
    login: string;
    allowance: number;
  }[];
  const account = accounts.find((a) => a.api_id === apiId);
  if (!account) throw new Error(`apps/origin/wrangler.jsonc declares no account ${apiId}`);
  return account;
}

interface CheckRun {
  code: number | null;
  output: string;
  passed: string[];
  failed: string[];
}

function runCheck(target: {
  url: string;
  apiId: string;
  apiSecret: string;
  login: string;
  allowance: number;
  /** The upstream API the edge answers the legacy routes from (the script's SCANGATE_EXPECT_UPSTREAM_API). */
  upstreamApi?: "platform";
}): Promise<CheckRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(SCANGATE|ORIGIN)_/.test(key)),
  );
  const child = spawn(SYSTEM_PYTHON, [CHECK_SCRIPT], {
    env: {
      ...inherited,
      SCANGATE_URL: target.url,
      SCANGATE_API_ID: target.apiId,
      SCANGATE_API_SECRET: target.apiSecret,
      SCANGATE_EXPECT_LOGIN: target.login,
      SCANGATE_EXPECT_ALLOWANCE: String(target.allowance),
      ...(target.upstreamApi ? { SCANGATE_EXPECT_UPSTREAM_API: target.upstreamApi } : {}),
    },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const named = (prefix: string) =>
        output
          .split("\n")
          .filter((line) => line.startsWith(prefix))
          .map((line) => line.slice(prefix.length).replace(/: .*$/, ""));
      resolve({ code, output, passed: named("ok    "), failed: named("FAIL  ") });
    });
  });
}

describeWith(censysPython(), "the official Censys Python client", () => {
  it("passes every check against the origin, which answers account() with its own account", async () => {
    const apiId = inject("ORIGIN_API_ID");
    const account = configuredOriginAccount(apiId);
    const run = await runCheck({
      url: inject("ORIGIN_URL"),
      apiId,
      apiSecret: inject("ORIGIN_API_SECRET"),
      ...account,
    });

    expect(run.failed, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    expect(run.passed.sort()).toEqual(declaredChecks().sort());
    expect(run.output).toContain(`against ${inject("ORIGIN_URL")}: 0 failure(s)`);
  });

  it("passes every check through the edge with a tenant credential, and account() is the tenant's, not the origin's", async () => {
    const admin = createAdminClient({ baseUrl: inject("EDGE_URL"), adminToken: inject("ADMIN_TOKEN") });
    // A tenant of its own on the high tier: the script calls every method of four client
    // classes, more requests in a minute than the standard tier's burst limit allows.
    const tenant = await admin.tenants.create({
      name: `censys-python-${Date.now()}`,
      allowance: 1000,
      tier: "high",
    });
    // The check is only telling if the tenant's allowance differs from the upstream account's.
    expect(tenant.allowance).not.toBe(configuredOriginAccount(inject("ORIGIN_API_ID")).allowance);

    const run = await runCheck({
      url: inject("EDGE_URL"),
      apiId: tenant.api_id,
      apiSecret: tenant.api_secret,
      login: tenant.name,
      allowance: tenant.allowance,
    });

    expect(run.failed, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    expect(run.passed).toContain(OWN_ACCOUNT_CHECK);
    expect(run.passed.sort()).toEqual(declaredChecks().sort());
    expect(run.output).toContain(`against ${inject("EDGE_URL")}: 0 failure(s)`);
  });
});

describeWith(
  censysPython(),
  "the official Censys Python client through an edge on a Platform-only upstream",
  () => {
    // A system of its own, its edge started with UPSTREAM_API=platform: the legacy API is answered
    // from the origin's /v3 surface alone.
    let system: RunningSystem | undefined;
    beforeAll(async () => {
      system = await startSystem({
        hosts: 300,
        certs: 250,
        timeoutMs: 300_000,
        reuseSeededOrigin: !process.env.CI,
        upstreamApi: "platform",
      });
    }, 320_000);
    afterAll(async () => {
      await system?.stop();
    }, 30_000);

    it("passes every check, raw data (no Platform equivalent) answering its 501", async () => {
      if (!system) throw new Error("the Platform-only system did not start");
      const { env } = system;
      expect(system.output()).toContain("UPSTREAM_API=platform");
      const admin = createAdminClient({ baseUrl: env.EDGE_URL, adminToken: env.ADMIN_TOKEN });
      const tenant = await admin.tenants.create({
        name: `censys-python-platform-${Date.now()}`,
        allowance: 1000,
        tier: "high",
      });

      const run = await runCheck({
        url: env.EDGE_URL,
        apiId: tenant.api_id,
        apiSecret: tenant.api_secret,
        login: tenant.name,
        allowance: tenant.allowance,
        upstreamApi: "platform",
      });

      expect(run.failed, run.output).toEqual([]);
      expect(run.code, run.output).toBe(0);
      expect(run.passed.sort()).toEqual(declaredChecks().sort());
      // Raw data has no Platform counterpart; every other check runs against the translation.
      const gaps = platformGapChecks();
      expect(gaps).toEqual(["CensysData lists the series, views one, and views one of its results"]);
      for (const name of gaps) expect(run.output, name).toContain(`ok    ${name}: 501 as expected`);
      // Every other check ran for real against the translation.
      expect(run.output.match(/501 as expected/g)?.length).toBe(gaps.length);
      expect(run.output).toContain(`against ${env.EDGE_URL}: 0 failure(s)`);
    });
  },
);
