import {
  BULK_FINGERPRINT_MAX_CHARS,
  BULK_MAX_FINGERPRINTS,
  bulkResponseSchema,
  bulkUnknownCertificateSchema,
  v1ErrorSchema,
} from "@scangate/core";
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

  it("answers strings that are not fingerprints as unknown certificates, keyed as sent, beside the known ones", async () => {
    const [first, second] = await certificateDocs();
    const requested = [
      first!.sha256,
      "zz",
      "g".repeat(64),
      second!.sha256.toUpperCase(),
      "",
      "__proto__",
      UNKNOWN,
    ];
    const before = await usedQuota();
    const { res, body } = await postJson("/api/v1/bulk/certificates", { fingerprints: requested });
    expect(res.status).toBe(200);
    bulkResponseSchema.parse(body);
    expect(Object.keys(body)).toEqual(requested);
    expect(body).toEqual({
      [first!.sha256]: first!.doc,
      zz: { error: "certificate zz not found", error_type: "unknown", status: "error" },
      ["g".repeat(64)]: {
        error: `certificate ${"g".repeat(64)} not found`,
        error_type: "unknown",
        status: "error",
      },
      [second!.sha256.toUpperCase()]: second!.doc,
      "": { error: "certificate  not found", error_type: "unknown", status: "error" },
      ["__proto__"]: { error: "certificate __proto__ not found", error_type: "unknown", status: "error" },
      [UNKNOWN]: { error: `certificate ${UNKNOWN} not found`, error_type: "unknown", status: "error" },
    });
    expect(await usedQuota()).toBe(before + 1);
  });

  it("answers 50 strings that are not fingerprints with 50 unknown entries", async () => {
    const fingerprints = Array.from({ length: BULK_MAX_FINGERPRINTS }, (_, i) => `not-a-fingerprint-${i}`);
    const { res, body } = await postJson("/api/v1/bulk/certificates", { fingerprints });
    expect(res.status).toBe(200);
    expect(Object.keys(body)).toEqual(fingerprints);
    for (const fingerprint of fingerprints) {
      expect(bulkUnknownCertificateSchema.parse(body[fingerprint])).toEqual({
        error: `certificate ${fingerprint} not found`,
        error_type: "unknown",
        status: "error",
      });
    }
  });

  it("refuses a fingerprint string in place of the list with one message", async () => {
    const { res, body } = await postJson("/api/v1/bulk/certificates", { fingerprints: UNKNOWN });
    expect(res.status).toBe(400);
    expect(body).toEqual({
      error_code: 400,
      error: "fingerprints: expected a list of 1 to 50 fingerprints (strings)",
    });
  });

  it.each([
    [
      "51 fingerprints",
      { fingerprints: Array.from({ length: 51 }, (_, i) => i.toString(16).padStart(64, "0")) },
      /at most 50/,
    ],
    [
      "a non-array",
      { fingerprints: { 0: UNKNOWN } },
      /^fingerprints: expected a list of 1 to 50 fingerprints/,
    ],
    [
      "a non-string entry",
      { fingerprints: [UNKNOWN, 7] },
      /^fingerprints\.1: expected a fingerprint string$/,
    ],
    [
      "an entry longer than the bound",
      { fingerprints: [UNKNOWN, "a".repeat(BULK_FINGERPRINT_MAX_CHARS + 1)] },
      /^fingerprints\.1: at most 256 characters per fingerprint$/,
    ],
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
