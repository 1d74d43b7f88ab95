import { beforeAll, describe, expect, it } from "vitest";
import { BadRequestError, InvalidQueryError, NotFoundError, type HostsSearchOptions } from "../../src/index";
import { CURRENT_SINCE, HISTORY_SINCE } from "../../../../apps/origin/test/support/small-dataset";
import { recordingFetch } from "./support/recording-fetch";
import { createTenant, edgeClient, seedOrigin } from "./support/stack";

let tenant: Awaited<ReturnType<typeof createTenant>>;
let client: ReturnType<typeof edgeClient>;
beforeAll(async () => {
  await seedOrigin();
  tenant = await createTenant();
  client = edgeClient(tenant);
});

async function collectPages(q: string | undefined, options: HostsSearchOptions) {
  const pages = [];
  for await (const page of client.hosts.searchPages(q, options)) pages.push(page);
  return pages;
}

describe("client.hosts.search (v2 cursors)", () => {
  it("walks links.next to the last page, where next is empty, and yields every host once", async () => {
    const { total } = await client.hosts.searchPage(undefined, { perPage: 100 });
    expect(total).toBeGreaterThan(4);
    const pages = await collectPages(undefined, { perPage: 2 });
    expect(pages).toHaveLength(Math.ceil(total / 2));
    expect(pages.at(0)?.links.prev).toBe("");
    expect(pages.at(-1)?.links.next).toBe("");
    const ips = pages.flatMap((p) => p.hits.map((h) => h.ip));
    expect(ips).toHaveLength(total);
    expect(new Set(ips).size).toBe(total);

    const hits = [];
    for await (const hit of client.hosts.search(undefined, { perPage: 2 })) hits.push(hit.ip);
    expect(hits).toEqual(ips);
  });

  it("walks links.prev from the last page back to the first, the same pages in reverse", async () => {
    const forward = await collectPages(undefined, { perPage: 2 });
    const last = forward.at(-1);
    const beforeLast = forward.at(-2);
    expect(last && beforeLast).toBeTruthy();
    // The cursor that led to the last page is the next link of the page before it.
    const backward = await collectPages(undefined, {
      perPage: 2,
      cursor: beforeLast?.links.next ?? "",
      direction: "prev",
    });
    expect(backward.map((p) => p.hits.map((h) => h.ip))).toEqual(
      forward.map((p) => p.hits.map((h) => h.ip)).reverse(),
    );
    expect(backward.at(-1)?.links.prev).toBe("");
  });

  it("sends the query, per_page, fields and the cursor of the previous page", async () => {
    const recorder = recordingFetch();
    const recorded = edgeClient(tenant, { fetch: recorder.fetch });
    const pages = [];
    const fields = ["services.port", "services.service_name", "location.country"];
    for await (const page of recorded.hosts.searchPages("services.port: 53", { perPage: 1, fields }))
      pages.push(page);
    const urls = recorder.requests.map((r) => new URL(r.url));
    expect(
      urls.every(
        (u) => u.searchParams.get("q") === "services.port: 53" && u.searchParams.get("per_page") === "1",
      ),
    ).toBe(true);
    expect(urls.every((u) => u.searchParams.getAll("fields").join() === fields.join())).toBe(true);
    expect(urls.map((u) => u.searchParams.get("cursor"))).toEqual([
      null,
      ...pages.slice(0, -1).map((p) => p.links.next),
    ]);
    expect(pages.flatMap((p) => p.hits).every((h) => typeof h.location?.country === "string")).toBe(true);
  });

  it("stops at maxResults without fetching further pages", async () => {
    const recorder = recordingFetch();
    const hits = [];
    for await (const hit of edgeClient(tenant, { fetch: recorder.fetch }).hosts.search(undefined, {
      perPage: 2,
      maxResults: 3,
    }))
      hits.push(hit);
    expect(hits).toHaveLength(3);
    expect(recorder.requests).toHaveLength(2);
  });

  it("throws InvalidQueryError (422) with the position and token that failed", async () => {
    const error = await client.hosts.searchPage("services.port: (22").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as InvalidQueryError).status).toBe(422);
    expect((error as InvalidQueryError).position).toEqual(expect.any(Number));
    expect((error as InvalidQueryError).message).toContain("at position");
  });

  it("throws BadRequestError for a cursor that was tampered with", async () => {
    const first = await client.hosts.searchPage(undefined, { perPage: 1 });
    const tampered = `${first.links.next.slice(0, -2)}xx`;
    await expect(client.hosts.searchPage(undefined, { perPage: 1, cursor: tampered })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });
});

describe("client.hosts.aggregate", () => {
  it("buckets the matching hosts by a field, keys as strings", async () => {
    const result = await client.hosts.aggregate("location.country_code", { numBuckets: 10 });
    expect(result.field).toBe("location.country_code");
    expect(result.buckets.reduce((sum, b) => sum + b.count, 0) + result.total_omitted).toBe(result.total);
    const us = await client.hosts.searchPage("location.country_code: US", { perPage: 100 });
    expect(result.buckets.find((b) => b.key === "US")?.count).toBe(us.total);
  });

  it("applies q", async () => {
    const result = await client.hosts.aggregate("services.port", { q: "location.country_code: CH" });
    expect(result.query).toBe("location.country_code: CH");
    expect(result.buckets.map((b) => b.key)).toEqual(["53"]);
  });
});

describe("client.hosts.view", () => {
  it("returns the current host with its services", async () => {
    const host = await client.hosts.view("1.1.1.1");
    expect(host.ip).toBe("1.1.1.1");
    expect(host.services.map((s) => s.port)).toEqual([53, 80, 443]);
  });

  it("returns the host as it was at a Date or an RFC 3339 string", async () => {
    const before = new Date(Date.parse(CURRENT_SINCE) - 86_400_000);
    expect(before.getTime()).toBeGreaterThan(Date.parse(HISTORY_SINCE));
    const then = await client.hosts.view("1.1.1.1", { atTime: before });
    expect(then.services.map((s) => s.port)).toEqual([53, 80]);
    const sameByString = await client.hosts.view("1.1.1.1", {
      atTime: before.toISOString().replace(".000Z", ".000000001Z"),
    });
    expect(sameByString.services.map((s) => s.port)).toEqual([53, 80]);
  });

  it("throws NotFoundError for a host that is not in the dataset", async () => {
    const error = await client.hosts.view("203.0.113.9").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).body).toMatchObject({ code: 404, status: "Not Found" });
  });

  it("throws a 4xx error for an at_time that is not RFC 3339", async () => {
    const error = await client.hosts.view("1.1.1.1", { atTime: "last tuesday" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain("at_time");
  });
});
