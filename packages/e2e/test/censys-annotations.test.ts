// The tag and comment methods of the official Censys Python client, unmodified, against the
// running edge (two tenants: tags shared, comments owned) and origin (one account, so the
// cross-tenant checks are skipped): apps/origin/compat/censys_annotations_check.py.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createAdminClient } from "@scangate/client";
import { expect, inject, it } from "vitest";
import { REPO_ROOT } from "./support/system";
import { censysPython, describeWith, SYSTEM_PYTHON } from "./support/system-deps";

const CHECK_SCRIPT = path.join(REPO_ROOT, "apps", "origin", "compat", "censys_annotations_check.py");

/** Every check the script declares, and those that need two tenants. */
function declaredChecks(): { all: string[]; crossTenant: string[] } {
  const matches = [
    ...readFileSync(CHECK_SCRIPT, "utf8").matchAll(/@check\(\s*"([^"]+)"(, cross_tenant=True)?\)/g),
  ];
  return {
    all: matches.map((match) => match[1] ?? ""),
    crossTenant: matches.filter((match) => match[2]).map((match) => match[1] ?? ""),
  };
}

interface Credential {
  apiId: string;
  apiSecret: string;
}

interface CheckRun {
  code: number | null;
  output: string;
  passed: string[];
  failed: string[];
  skipped: string[];
}

function runCheck(url: string, a: Credential, b: Credential): Promise<CheckRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(SCANGATE|ORIGIN)_/.test(key)),
  );
  const child = spawn(SYSTEM_PYTHON, [CHECK_SCRIPT], {
    env: {
      ...inherited,
      SCANGATE_URL: url,
      SCANGATE_API_ID: a.apiId,
      SCANGATE_API_SECRET: a.apiSecret,
      SCANGATE_API_ID_B: b.apiId,
      SCANGATE_API_SECRET_B: b.apiSecret,
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
          .map((line) => line.slice(prefix.length).replace(/(: | \(one credential\)).*$/, ""));
      resolve({ code, output, passed: named("ok    "), failed: named("FAIL  "), skipped: named("skip  ") });
    });
  });
}

describeWith(censysPython(), "the official client's tag and comment methods", () => {
  it("pass every check through the edge with two tenants: B sees A's tags and cannot change A's comments", async () => {
    const admin = createAdminClient({ baseUrl: inject("EDGE_URL"), adminToken: inject("ADMIN_TOKEN") });
    const second = await admin.tenants.create({ name: `annotations-b-${Date.now()}`, allowance: 100 });
    try {
      const run = await runCheck(
        inject("EDGE_URL"),
        { apiId: inject("DEMO_API_ID"), apiSecret: inject("DEMO_API_SECRET") },
        { apiId: second.api_id, apiSecret: second.api_secret },
      );
      expect(run.failed, run.output).toEqual([]);
      expect(run.code, run.output).toBe(0);
      expect(run.skipped, run.output).toEqual([]);
      expect(run.passed.sort()).toEqual(declaredChecks().all.sort());
      expect(run.output).toContain(`against ${inject("EDGE_URL")} (two tenants): 0 failure(s)`);

      // The changes are the edge's own: its audit log holds them, by the tenants that made them.
      const audit = await fetch(`${inject("EDGE_URL")}/admin/audit?tenant_id=${second.id}`, {
        headers: { authorization: `Bearer ${inject("ADMIN_TOKEN")}` },
      });
      const { entries } = (await audit.json()) as { entries: { action: string; actor: string }[] };
      expect(entries.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(["tag.update", "tag.attach", "comment.create", "comment.delete"]),
      );
    } finally {
      await admin.tenants.delete(second.id);
    }
  });

  it("pass the single-account checks against the origin, skipping only the cross-tenant ones", async () => {
    // The cross-tenant checks need two accounts (one tenant's comment refused to another); the
    // origin runs here with one credential, so they are skipped on purpose. The edge run above,
    // with two tenants, runs them all with none skipped.
    const account = { apiId: inject("ORIGIN_API_ID"), apiSecret: inject("ORIGIN_API_SECRET") };
    const run = await runCheck(inject("ORIGIN_URL"), account, account);
    const { all, crossTenant } = declaredChecks();
    expect(crossTenant.length).toBeGreaterThan(0);
    expect(run.failed, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    expect(run.skipped.sort()).toEqual([...crossTenant].sort());
    expect(run.passed.sort()).toEqual(all.filter((name) => !crossTenant.includes(name)).sort());
    expect(run.output).toContain(`against ${inject("ORIGIN_URL")} (one credential): 0 failure(s)`);
  });
});
