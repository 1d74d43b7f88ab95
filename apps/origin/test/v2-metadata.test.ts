import { hostsMetadataResultSchema, v2Envelope } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts } from "./support/dataset-facts";
import { getJson } from "./support/requests";

beforeAll(() => seedTestDataset());

describe("GET /api/v2/metadata/hosts", () => {
  it("lists every service name the hosts run, each once, in order", async () => {
    const hosts = await hostFacts();
    const byLowerCase = new Map<string, string>();
    for (const host of hosts)
      for (const s of host.doc.services) byLowerCase.set(s.service_name.toLowerCase(), s.service_name);
    const expected = [...byLowerCase.keys()].sort();

    const { res, body } = await getJson("/api/v2/metadata/hosts");
    expect(res.status).toBe(200);
    const { result } = v2Envelope(hostsMetadataResultSchema).parse(body);
    expect(result.services.map((name) => name.toLowerCase())).toEqual(expected);
    expect(result.services.length).toBeGreaterThan(1);
  });

  it("costs no quota", async () => {
    const before = await getJson("/api/v1/account");
    await getJson("/api/v2/metadata/hosts");
    const after = await getJson("/api/v1/account");
    expect((after.body as { quota: { used: number } }).quota.used).toBe(
      (before.body as { quota: { used: number } }).quota.used,
    );
  });
});
