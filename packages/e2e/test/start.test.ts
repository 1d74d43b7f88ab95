// What `pnpm start` promises a person: both workers up, wired to each other, the demo tenant
// working, and its URLs and credentials printed and written to the local-env file.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createClient } from "@scangate/client";
import { describe, expect, inject, it } from "vitest";
import { EDGE_DEV_VARS, fileDigest, LOCAL_ENV_KEYS, parseLocalEnv, REPO_ROOT } from "./support/system";

async function health(url: string): Promise<unknown> {
  const res = await fetch(`${url}/health`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("scripts/start.mjs", () => {
  it("writes the URLs and working credentials to its local-env file and prints them", async () => {
    const written = parseLocalEnv(readFileSync(inject("LOCAL_ENV_FILE"), "utf8"));
    for (const key of LOCAL_ENV_KEYS) expect(written[key], key).toBe(inject(key));

    expect(await health(inject("EDGE_URL"))).toMatchObject({ service: "edge" });
    expect(await health(inject("ORIGIN_URL"))).toMatchObject({ status: "ok" });
    const demo = createClient({
      baseUrl: inject("EDGE_URL"),
      apiId: inject("DEMO_API_ID"),
      apiSecret: inject("DEMO_API_SECRET"),
    });
    expect((await demo.account()).login).toBe("demo");

    const printed = inject("START_OUTPUT");
    expect(printed).toContain(`edge    ${inject("EDGE_URL")}`);
    expect(printed).toContain(`origin  ${inject("ORIGIN_URL")}`);
    expect(printed).toContain(`API ID ${inject("DEMO_API_ID")}`);
    expect(printed).toContain(`admin token   ${inject("ADMIN_TOKEN")}`);
    expect(printed).toContain(`These values are also in ${inject("LOCAL_ENV_FILE")}.`);
  });

  it("wires the edge to its own origin, not to another instance's", async () => {
    const viaEdge = createClient({
      baseUrl: inject("EDGE_URL"),
      apiId: inject("DEMO_API_ID"),
      apiSecret: inject("DEMO_API_SECRET"),
    });
    const origin = createClient({
      baseUrl: inject("ORIGIN_URL"),
      apiId: inject("ORIGIN_API_ID"),
      apiSecret: inject("ORIGIN_API_SECRET"),
    });
    const [edgeAnswer, originAnswer] = await Promise.all([
      viaEdge.hosts.searchPage("", { perPage: 1 }),
      origin.hosts.searchPage("", { perPage: 1 }),
    ]);
    // The small dataset this run seeded (--hosts 300), not a default one of 5,000 hosts.
    expect(originAnswer.total).toBe(300);
    expect(edgeAnswer.total).toBe(originAnswer.total);
    expect(edgeAnswer.hits.map((hit) => hit.ip)).toEqual(originAnswer.hits.map((hit) => hit.ip));
  });

  it("prints /v3 examples with the demo tenant's bearer token that answer as printed", () => {
    const written = parseLocalEnv(readFileSync(inject("LOCAL_ENV_FILE"), "utf8"));
    const token = written.DEMO_PLATFORM_TOKEN ?? "";
    expect(token).not.toBe("");
    expect(written.PLATFORM_ORGANIZATION_ID).toMatch(/^[0-9a-f-]{36}$/);
    const lines = inject("START_OUTPUT").split("\n");
    const at = lines.findIndex((line) => line.includes(`curl -H "Authorization: Bearer ${token}"`));
    expect(at).toBeGreaterThan(0);
    // The printed curl, its continuation line included, run as a person pastes it.
    const curl = lines.slice(at, at + 2).join("\n");
    const answer = JSON.parse(execFileSync("bash", ["-c", curl], { encoding: "utf8" })) as {
      result: { hits: unknown[]; total_hits: number };
    };
    expect(answer.result.hits).toHaveLength(2);
    expect(answer.result.total_hits).toBeGreaterThan(2);

    const cli = lines.find((line) => line.includes("scangate.mjs search") && line.includes("--api v3"));
    expect(cli).toBeDefined();
    const args = (cli ?? "").trim().match(/"[^"]*"|\S+/g) ?? [];
    const output = execFileSync(
      process.execPath,
      args.slice(1).map((arg) => arg.replace(/^"|"$/g, "")),
      {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, SCANGATE_URL: inject("EDGE_URL"), SCANGATE_PLATFORM_TOKEN: token },
      },
    );
    expect(output.match(/\b\d{1,3}(\.\d{1,3}){3}\b/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
  });

  it("keeps its edge secrets in its state dir and leaves apps/edge/.dev.vars as it was", () => {
    expect(fileDigest(EDGE_DEV_VARS)).toBe(inject("EDGE_DEV_VARS_DIGEST"));
  });
});
