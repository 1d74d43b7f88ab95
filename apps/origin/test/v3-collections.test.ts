import { env } from "cloudflare:workers";
import { V3_COLLECTIONS_MAX } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts } from "./support/dataset-facts";
import { platformOrg, rowCount, type PlatformOrg } from "./support/platform-org";
import { balanceOf } from "./v3-requests";

beforeAll(() => seedTestDataset());

type Result<T> = { result: T };
interface Collection {
  id: string;
  name: string;
  query: string;
  status: string;
  status_reason: string | null;
  total_assets: number;
  added_assets_24_hours: number;
  removed_assets_24_hours: number;
}
interface Events {
  events: {
    asset_change?: { change_type: string; reason: string; asset_id: string };
    status_change?: { new_status: string; old_status?: string; reason?: string };
  }[];
  next_page: string;
}

async function create(org: PlatformOrg, name: string, query: string): Promise<Collection> {
  const { status, body } = await org.json<Result<Collection>>("POST", "/v3/collections", {
    body: { name, query, description: "" },
  });
  expect(status).toBe(200);
  return body.result;
}

async function events(org: PlatformOrg, id: string, query = ""): Promise<Events["events"]> {
  const { body } = await org.json<Result<Events>>(
    "GET",
    `/v3/collections/${id}/events?page_size=100${query}`,
  );
  return body.result.events;
}

describe("collections", () => {
  it("holds the assets its query matches, each recorded as added, and is active", async () => {
    const org = platformOrg("org-collections");
    const ssh = (await hostFacts())
      .filter((h) => h.doc.services.some((s) => s.service_name === "SSH"))
      .map((h) => h.ip);
    const made = await create(org, "SSH hosts", "host.services.protocol=SSH");
    expect(made).toMatchObject({
      status: "active",
      status_reason: "initial",
      total_assets: ssh.length,
      added_assets_24_hours: ssh.length,
      removed_assets_24_hours: 0,
    });
    const added = (await events(org, made.id, "&change_types=asset")).map((e) => e.asset_change!.asset_id);
    expect(added.sort()).toEqual([...ssh].sort());
    const statuses = (await events(org, made.id, "&change_types=status")).map(
      (e) => e.status_change!.new_status,
    );
    expect(statuses).toEqual(["active", "populating"]);
    // Managing collections is free.
    expect(await balanceOf(org.id)).toBe(100_000);
  });

  it("searches and aggregates within the collection: the caller's query cannot reach outside it", async () => {
    const org = platformOrg("org-collections-search");
    const hosts = await hostFacts();
    const ssh = new Set(
      hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH")).map((h) => h.ip),
    );
    const made = await create(org, "SSH", "host.services.protocol=SSH");
    const search = await org.json<
      Result<{ hits: { host_v1: { resource: { ip: string } } }[]; total_hits: number }>
    >("POST", `/v3/collections/${made.id}/search/query`, { body: { query: "host.ip: *", page_size: 100 } });
    expect(search.body.result.total_hits).toBe(ssh.size);
    expect(search.body.result.hits.every((h) => ssh.has(h.host_v1.resource.ip))).toBe(true);
    // Text that would close the collection's parentheses in a joined query is just a bad query.
    const escape = await org.call("POST", `/v3/collections/${made.id}/search/query`, {
      body: { query: "host.ip: *) or (host.ip: *" },
    });
    expect(escape.status).toBe(400);
    const aggregate = await org.json<
      Result<{ total_count: number; buckets: { key: string; count: number }[] }>
    >("POST", `/v3/collections/${made.id}/search/aggregate`, {
      body: { query: "", field: "host.location.country", number_of_buckets: 100 },
    });
    expect(aggregate.body.result.total_count).toBe(ssh.size);
    expect(aggregate.body.result.buckets.reduce((n, b) => n + b.count, 0)).toBe(ssh.size);
    const wrong = await org.call("POST", `/v3/collections/${made.id}/search/query`, {
      body: { query: "cert.names: *" },
    });
    expect(wrong.status).toBe(400);
    expect(await balanceOf(org.id)).toBe(100_000 - 2);
  });

  it("records the assets a new query adds and removes (query_changed)", async () => {
    const org = platformOrg("org-collections-update");
    const hosts = await hostFacts();
    const made = await create(org, "ports", "host.services.port: 22");
    const { status, body } = await org.json<Result<Collection>>("PUT", `/v3/collections/${made.id}`, {
      body: { name: "ports", query: "host.services.port: 80" },
    });
    expect(status).toBe(200);
    expect(body.result.status_reason).toBe("query_changed");
    const on = (port: number) =>
      new Set(hosts.filter((h) => h.doc.services.some((s) => s.port === port)).map((h) => h.ip));
    const [before, after] = [on(22), on(80)];
    const changes = await events(org, made.id, "&change_types=asset&page_size=100");
    const removed = changes
      .filter((e) => e.asset_change?.change_type === "removed")
      .map((e) => e.asset_change!.asset_id);
    expect(removed.sort()).toEqual([...before].filter((ip) => !after.has(ip)).sort());
    expect(body.result.total_assets).toBe(after.size);
  });

  it("follows the dataset: after a reseed the assets that stopped matching are recorded as removed", async () => {
    const org = platformOrg("org-collections-dataset");
    const made = await create(org, "telnet", "host.services.protocol=TELNET");
    expect(made.total_assets).toBeGreaterThan(0);
    const [gone] = (
      await env.DB.prepare(
        "select ip from host_services where service_name = 'TELNET' order by ip limit 1",
      ).all<{ ip: string }>()
    ).results;
    const original = await env.DB.prepare("select value from dataset_meta where key = 'dataset'").first<{
      value: string;
    }>();
    await env.DB.batch([
      env.DB.prepare(
        "update host_services set service_name = 'UNKNOWN' where ip = ? and service_name = 'TELNET'",
      ).bind(gone!.ip),
      env.DB.prepare("update dataset_meta set value = 'a changed dataset' where key = 'dataset'"),
    ]);
    try {
      const { body } = await org.json<Result<Collection>>("GET", `/v3/collections/${made.id}`);
      expect(body.result.total_assets).toBe(made.total_assets - 1);
      const removed = (await events(org, made.id, "&asset_change_types=removed&change_types=asset")).map(
        (e) => e.asset_change!.asset_id,
      );
      expect(removed).toEqual([gone!.ip]);
    } finally {
      await env.DB.batch([
        env.DB.prepare(
          "update host_services set service_name = 'TELNET' where ip = ? and service_name = 'UNKNOWN'",
        ).bind(gone!.ip),
        env.DB.prepare("update dataset_meta set value = ? where key = 'dataset'").bind(original!.value),
      ]);
    }
  });

  it("lists the organization's collections a page at a time, by status", async () => {
    const org = platformOrg("org-collections-list");
    for (const name of ["a", "b", "c"]) await create(org, name, "host.ip: 192.0.2.1");
    const first = await org.json<Result<{ collections: Collection[]; next_page_token: string }>>(
      "GET",
      "/v3/collections?page_size=2",
    );
    expect(first.body.result.collections.map((c) => c.name)).toEqual(["a", "b"]);
    const second = await org.json<Result<{ collections: Collection[]; next_page_token: string }>>(
      "GET",
      `/v3/collections?page_size=2&page_token=${first.body.result.next_page_token}`,
    );
    expect(second.body.result).toMatchObject({ collections: [{ name: "c" }], next_page_token: "" });
    const paused = await org.json<Result<{ collections: Collection[] }>>(
      "GET",
      "/v3/collections?collection_statuses=paused",
    );
    expect(paused.body.result.collections).toEqual([]);
  });

  it("refuses a taken name, a bad query or name and the organization's limit, writing nothing", async () => {
    const org = platformOrg("org-collections-refusals");
    await create(org, "Café", "host.ip: 192.0.2.1");
    const count = () => rowCount("v3_collections", "organization_id = ?", org.id);
    const before = await count();
    const cases: [unknown, number][] = [
      [{ name: "CAFE\u0301", query: "host.ip: *" }, 409],
      [{ name: "x", query: "host.services.port: (" }, 400],
      [{ name: "", query: "host.ip: *" }, 400],
      [{ name: "x", query: "" }, 400],
      [{ name: "x".repeat(256), query: "host.ip: *" }, 400],
    ];
    for (const [body, status] of cases)
      expect((await org.call("POST", "/v3/collections", { body })).status, JSON.stringify(body)).toBe(status);
    expect(
      (await org.call("POST", "/v3/collections", { raw: '{"name": "\\ud800", "query": "host.ip: *"}' }))
        .status,
    ).toBe(400);
    expect(await count()).toBe(before);
    await env.DB.prepare(
      `insert into v3_collections (id, organization_id, name, name_key, description, query, status, status_reason, created_by, created_at, dataset, total_assets)
       select 'col_fill_' || j.value, ?, 'fill ' || j.value, 'fill ' || j.value, '', 'host.ip: 192.0.2.1', 'active', null, 'seed', 0, '', 0 from json_each(?) j`,
    )
      .bind(org.id, JSON.stringify(Array.from({ length: V3_COLLECTIONS_MAX - before }, (_, i) => i)))
      .run();
    expect(
      (await org.call("POST", "/v3/collections", { body: { name: "one more", query: "host.ip: *" } })).status,
    ).toBe(409);
    expect(await count()).toBe(V3_COLLECTIONS_MAX);
  });

  it("does not find another organization's collection, and deletes one with its events", async () => {
    const mine = platformOrg("org-collections-mine");
    const theirs = platformOrg("org-collections-theirs");
    const made = await create(mine, "private", "host.services.port: 22");
    for (const [method, path] of [
      ["GET", `/v3/collections/${made.id}`],
      ["DELETE", `/v3/collections/${made.id}`],
      ["GET", `/v3/collections/${made.id}/events`],
    ] as const)
      expect((await theirs.call(method, path)).status).toBe(404);
    const deleted = await mine.call("DELETE", `/v3/collections/${made.id}`);
    expect(deleted.status).toBe(204);
    expect(await rowCount("v3_collection_events", "collection_id = ?", made.id)).toBe(0);
    expect(await rowCount("v3_collection_assets", "collection_id = ?", made.id)).toBe(0);
    expect((await mine.call("GET", `/v3/collections/${made.id}`)).status).toBe(404);
  });
});
