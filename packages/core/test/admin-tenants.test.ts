import { describe, expect, it } from "vitest";
import {
  TENANT_PERIODS,
  tenantCreateBodySchema,
  tenantPatchBodySchema,
  tenantPeriodSchema,
} from "../src/index";
import { PROTOTYPE_NAMES } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("tenant periods", () => {
  it("are daily, monthly and never", () => {
    expect(TENANT_PERIODS).toEqual(["daily", "monthly", "never"]);
    for (const period of TENANT_PERIODS) accepts(tenantPeriodSchema, period);
  });

  it.each(PROTOTYPE_NAMES)("refuses the inherited name %s as a period", (name) => {
    rejects(tenantPeriodSchema, name);
    rejects(tenantCreateBodySchema, { name: "alice", period: name }, ["period"]);
    rejects(tenantPatchBodySchema, { period: name }, ["period"]);
  });
});

describe("tenant request bodies", () => {
  it("accept a create body with every field", () => {
    accepts(tenantCreateBodySchema, {
      name: "alice",
      email: "alice@example.com",
      allowance: 10,
      period: "daily",
      tier: "high",
    });
  });

  it("refuse tier names that are not lower-case names", () => {
    rejects(tenantCreateBodySchema, { name: "alice", tier: "__proto__" }, ["tier"]);
    rejects(tenantCreateBodySchema, { name: "alice", tier: "toString" }, ["tier"]);
    rejects(tenantPatchBodySchema, { tier: "hasOwnProperty" }, ["tier"]);
  });

  it("refuse an empty change", () => {
    rejects(tenantPatchBodySchema, {});
  });
});
