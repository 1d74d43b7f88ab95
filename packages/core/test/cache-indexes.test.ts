import { describe, expect, it } from "vitest";
import { CACHE_INDEXES, V1_INDEXES, cacheIndexSchema } from "../src/index";
import { PROTOTYPE_NAMES } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("cache indexes", () => {
  it("are the three v1 indexes, v2 hosts and the two paged v2 lists", () => {
    expect(CACHE_INDEXES).toEqual([...V1_INDEXES, "hosts", "host_names", "certificate_hosts"]);
    for (const index of CACHE_INDEXES) accepts(cacheIndexSchema, index);
  });

  it("refuses any other index", () => {
    rejects(cacheIndexSchema, "host");
    rejects(cacheIndexSchema, "IPV4");
    rejects(cacheIndexSchema, "");
  });

  it.each(PROTOTYPE_NAMES)("refuses the inherited name %s as an index", (name) => {
    rejects(cacheIndexSchema, name);
  });
});
