import { BULK_MAX_FINGERPRINTS, bulkResponseSchema, v1ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { certificateDocs } from "./support/dataset-facts";
import { call, getJson, postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

const UNKNOWN = "0".repeat(64);

async function usedQuota(): Promise<number> {
  const { body } = await getJson<{ quota: { used: number } }>("/api/v1/account");
  return body.quota.used;
}

describe("POST /api/v1/bulk/certificates", () => {
  it("returns every requested fingerprint as a key, spelled as requested", async () => {
    const certs = await certificateDocs();
    const [first, second] = certs;
    const requested = [first!.sha256.toUpperCase(), second!.sha256, UNKNOWN];
    const { res, body } = await postJson("/api/v1/bulk/certificates", { fingerprints: requested });
    expect(res.status).toBe(200);
    const parsed = bulkResponseSchema.parse(body);
    expect(Object.keys(parsed).sort()).toEqual([...requested].sort());
    expect(body[requested[0]!]).toEqual(first!.doc);
    expect(body[requested[1]!]).toEqual(second!.doc);
    expect(body[UNKNOWN]).toMatchObject({ error_type: "unknown", status: "error" });
    expect(body).not.toHaveProperty("error");
  });

  it("accepts exactly 50 fingerprints and charges one unit for the request", async () => {
    const before = await usedQuota();
    const fingerprints = Array.from({ length: BULK_MAX_FINGERPRINTS }, (_, i) =>
      i.toString(16).padStart(64, "0"),
    );
    const { res, body } = await postJson("/api/v1/bulk/certificates", { fingerprints });
    expect(res.status).toBe(200);
    expect(Object.keys(body)).toHaveLength(BULK_MAX_FINGERPRINTS);
    expect(await usedQuota()).toBe(before + 1);
  });

  it.each([
    [
      "51 fingerprints",
      { fingerprints: Array.from({ length: 51 }, (_, i) => i.toString(16).padStart(64, "0")) },
      /at most 50/,
    ],
    ["a non-array", { fingerprints: "a".repeat(64) }, /fingerprints/],
    ["a non-hex value", { fingerprints: ["g".repeat(64)] }, /fingerprints\.0: expected a SHA-256/],
    ["an empty list", { fingerprints: [] }, /at least one/],
    ["no fingerprints key", {}, /fingerprints/],
    ["a JSON array body", [UNKNOWN], /expected object/],
  ])("refuses %s with a 400 that says why, charging nothing", async (_what, payload, message) => {
    const before = await usedQuota();
    const { res, body } = await postJson("/api/v1/bulk/certificates", payload);
    expect(res.status).toBe(400);
    const error = v1ErrorSchema.parse(body);
    expect(error.error_code).toBe(400);
    expect(error.error).toMatch(message);
    expect(await usedQuota()).toBe(before);
  });

  it.each(["ipv4", "websites", "nope"])("answers bulk on index %s with 404", async (index) => {
    const { res, body } = await postJson(`/api/v1/bulk/${index}`, { fingerprints: [UNKNOWN] });
    expect(res.status).toBe(404);
    expect(body).toEqual({ error_code: 404, error: "page not found" });
  });

  it("refuses a body that is not JSON with a 400", async () => {
    const res = await call("POST", "/api/v1/bulk/certificates", { body: "{fingerprints:" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error_code: 400, error: "request body is not valid JSON" });
  });
});
