import { describe, expect, it } from "vitest";
import { accountSchema, bulkBodySchema, bulkParamsSchema, bulkResponseSchema } from "../src/index";
import { FP, FP2, FP_UPPER, certificateDocument } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("bulk", () => {
  it("only the certificates index takes bulk requests", () => {
    accepts(bulkParamsSchema, { index: "certificates" });
    rejects(bulkParamsSchema, { index: "ipv4" });
  });

  it("body takes 1 to 50 fingerprints in either case", () => {
    accepts(bulkBodySchema, { fingerprints: [FP, FP_UPPER] });
    accepts(bulkBodySchema, { fingerprints: Array.from({ length: 50 }, () => FP) });
  });

  it("body refuses 51 fingerprints, none, a non-hex one and a missing list", () => {
    rejects(bulkBodySchema, { fingerprints: Array.from({ length: 51 }, () => FP) }, ["fingerprints"]);
    rejects(bulkBodySchema, { fingerprints: [] }, ["fingerprints"]);
    rejects(bulkBodySchema, { fingerprints: [FP, "not-a-fingerprint"] }, ["fingerprints", 1]);
    rejects(bulkBodySchema, {}, ["fingerprints"]);
  });

  it("response maps each fingerprint to a document or an unknown-certificate entry", () => {
    const body = accepts(bulkResponseSchema, {
      [FP]: certificateDocument(),
      [FP2]: { error: "certificate not found", error_type: "unknown", status: "error" },
    });
    expect(Object.keys(body)).toEqual([FP, FP2]);
  });

  it("response refuses an entry that is neither", () => {
    rejects(bulkResponseSchema, { [FP]: { status: "error" } });
  });
});

describe("account", () => {
  const account = {
    login: "alice",
    email: "alice@example.com",
    first_login: "2024-01-02 03:04:05",
    last_login: "2024-03-04 05:06:07.123456",
    quota: { used: 12, allowance: 250, resets_at: "2024-04-01 00:00:00" },
  };
  it("accepts the spec's timestamp formats", () => {
    accepts(accountSchema, account);
    accepts(accountSchema, { ...account, last_login: "2024-03-04 05:06:07" });
  });
  it("refuses ISO timestamps, a missing quota field and a negative count", () => {
    rejects(accountSchema, { ...account, first_login: "2024-01-02T03:04:05Z" }, ["first_login"]);
    rejects(accountSchema, { ...account, quota: { ...account.quota, resets_at: "2024-04-01" } }, [
      "quota",
      "resets_at",
    ]);
    rejects(accountSchema, { ...account, quota: { used: 1, resets_at: "2024-04-01 00:00:00" } }, [
      "quota",
      "allowance",
    ]);
    rejects(accountSchema, { ...account, quota: { ...account.quota, used: -1 } }, ["quota", "used"]);
  });
});
