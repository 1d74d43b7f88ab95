import type { V1Index } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidQueryError, NotFoundError } from "../../src/index";
import { createTenant, edgeClient, seedOrigin } from "./support/stack";

let client: ReturnType<typeof edgeClient>;
beforeAll(async () => {
  await seedOrigin();
  client = edgeClient(await createTenant());
});

describe("client.search (v1)", () => {
  it("returns one page with the requested fields, flattened by default", async () => {
    const page = await client.search("ipv4", "location.country_code: US", {
      fields: ["ip", "location.country"],
    });
    expect(page.status).toBe("ok");
    expect(page.metadata.page).toBe(1);
    expect(page.metadata.count).toBe(page.results.length);
    expect(page.results.length).toBeGreaterThan(0);
    for (const result of page.results) {
      expect(Object.keys(result).sort()).toEqual(["ip", "location.country"]);
      expect(result["location.country"]).toBe("United States");
    }
  });

  it("returns nested objects with flatten: false", async () => {
    const page = await client.search("ipv4", "location.country_code: US", {
      fields: ["ip", "location.country"],
      flatten: false,
    });
    expect(page.results[0]).toMatchObject({ location: { country: "United States" } });
  });

  it("searchAll yields every result of every page and stops at metadata.pages", async () => {
    const first = await client.search("ipv4", "*");
    const all: Record<string, unknown>[] = [];
    for await (const result of client.searchAll("ipv4", "*")) all.push(result);
    expect(all.length).toBe(first.metadata.count);
    expect(new Set(all.map((r) => r.ip)).size).toBe(all.length);
  });

  it("searchPages yields each page once, numbered from 1", async () => {
    const pages = [];
    for await (const page of client.searchPages("certificates", "*")) pages.push(page);
    expect(pages.map((p) => p.metadata.page)).toEqual(
      Array.from({ length: pages[0]?.metadata.pages ?? 0 }, (_, i) => i + 1),
    );
  });

  it("searchAll stops at maxResults", async () => {
    const some: unknown[] = [];
    for await (const result of client.searchAll("ipv4", "*", { maxResults: 2 })) some.push(result);
    expect(some).toHaveLength(2);
  });

  it("throws InvalidQueryError with where parsing failed for a query that does not parse", async () => {
    const error = await client.search("ipv4", "location.country_code: (US").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as InvalidQueryError).status).toBe(400);
    expect((error as InvalidQueryError).message).toMatch(
      /POST \/api\/v1\/search\/ipv4 failed with 400: query could not be parsed/,
    );
    expect((error as InvalidQueryError).position).toEqual(expect.any(Number));
  });

  it("throws NotFoundError for an index that does not exist", async () => {
    await expect(client.search("hosts" as V1Index, "*")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("client.report", () => {
  it("buckets a field over the matching documents", async () => {
    const all = await client.search("ipv4", "*", { fields: ["location.country_code"] });
    const report = await client.report("ipv4", "*", "location.country_code", { buckets: 10 });
    expect(report.status).toBe("ok");
    const us = all.results.filter((r) => r["location.country_code"] === "US").length;
    expect(report.results.find((b) => b.key === "US")?.doc_count).toBe(us);
    expect(report.metadata.buckets).toBe(report.results.length);
  });

  it("throws InvalidQueryError for a query that does not parse", async () => {
    await expect(client.report("ipv4", "((", "location.country_code")).rejects.toBeInstanceOf(
      InvalidQueryError,
    );
  });
});
