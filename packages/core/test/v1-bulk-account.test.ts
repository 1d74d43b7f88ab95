import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  accountSchema,
  BULK_FINGERPRINT_MAX_CHARS,
  bulkBodySchema,
  bulkLookupIds,
  bulkParamsSchema,
  bulkResponseSchema,
} from "../src/index";
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

  it("body takes strings that are not fingerprints, up to the length bound, as asked", () => {
    const longest = "x".repeat(BULK_FINGERPRINT_MAX_CHARS);
    const body = accepts(bulkBodySchema, { fingerprints: [FP, "not-a-fingerprint", "", longest] });
    expect(body.fingerprints).toEqual([FP, "not-a-fingerprint", "", longest]);
  });

  it("body refuses 51 fingerprints, none, a non-string one, an overlong one and a missing list", () => {
    rejects(bulkBodySchema, { fingerprints: Array.from({ length: 51 }, () => FP) }, ["fingerprints"]);
    rejects(bulkBodySchema, { fingerprints: [] }, ["fingerprints"]);
    rejects(bulkBodySchema, { fingerprints: [FP, 7] }, ["fingerprints", 1]);
    rejects(bulkBodySchema, { fingerprints: [FP, "x\ud800"] }, ["fingerprints", 1]);
    rejects(bulkBodySchema, { fingerprints: [FP, "x".repeat(BULK_FINGERPRINT_MAX_CHARS + 1)] }, [
      "fingerprints",
      1,
    ]);
    rejects(bulkBodySchema, {}, ["fingerprints"]);
  });

  it("body refuses a single fingerprint string in place of the list with one message", () => {
    const result = bulkBodySchema.safeParse({ fingerprints: FP });
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ["fingerprints"], message: "expected a list of 1 to 50 fingerprints (strings)" },
    ]);
  });

  it("body's JSON Schema still bounds the list to 1..50 strings of at most 256 characters", () => {
    const schema = z.toJSONSchema(bulkBodySchema, { io: "input" });
    expect(schema.properties?.fingerprints).toMatchObject({
      type: "array",
      minItems: 1,
      maxItems: 50,
      items: { type: "string", maxLength: BULK_FINGERPRINT_MAX_CHARS },
    });
  });

  it("looks up only the well-formed fingerprints, in lower case, each once, in first-seen order", () => {
    expect(bulkLookupIds([FP_UPPER, "zz", FP2, FP, "", "g".repeat(64)])).toEqual([FP, FP2]);
    expect(bulkLookupIds(["zz", "not-a-fingerprint"])).toEqual([]);
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
