import { env } from "cloudflare:workers";
import {
  V3_ASSET_TAGS_MAX,
  V3_RUNNING_TAG_OPERATIONS_MAX,
  V3_TAG_ASSETS_MAX,
  V3_TAG_OPERATION_START_MS,
  V3_TAG_OPERATION_STEP_MS,
  V3_TAGS_MAX,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts } from "./support/dataset-facts";
import { platformOrg, rowCount, type PlatformOrg } from "./support/platform-org";

beforeAll(() => seedTestDataset());

interface Tag {
  id: string;
  name: string;
  privacy: string;
  description?: string;
  created_by: string;
}
interface Operation {
  id: string;
  status: string;
  total_count: number;
  processed_count: number;
  successful_count: number;
  ended_at?: string;
  status_message?: string;
}
type Result<T> = { result: T };

async function createTag(org: PlatformOrg, name: string, privacy = "shared", member = 1): Promise<Tag> {
  const { status, body } = await org.json<Result<Tag>>("POST", "/v3/tags", {
    member,
    body: { name, privacy },
  });
  expect(status).toBe(201);
  return body.result;
}

/** Every assignment of the tag that shows now, page by page. */
async function assignments(org: PlatformOrg, tagId: string, query = ""): Promise<{ asset_id: string }[]> {
  const all: { asset_id: string }[] = [];
  let token = "";
  do {
    const { body } = await org.json<
      Result<{ assignments: { asset_id: string }[]; next_page_token?: string }>
    >("GET", `/v3/tags/${tagId}/assignments?page_size=100${query}${token ? `&page_token=${token}` : ""}`);
    all.push(...body.result.assignments);
    token = body.result.next_page_token ?? "";
  } while (token);
  return all;
}

async function operation(org: PlatformOrg, tagId: string, id: string): Promise<Operation> {
  const { status, body } = await org.json<Result<Operation>>("GET", `/v3/tags/${tagId}/operations/${id}`);
  expect(status).toBe(200);
  return body.result;
}

/** Fills a tag with `n` assignments of made-up assets, as if assigned long ago. */
async function fill(org: PlatformOrg, tagId: string, n: number, prefix = "10.9"): Promise<void> {
  const statements = [];
  for (let i = 0; i < n; i += 500) {
    const rows = Array.from({ length: Math.min(500, n - i) }, (_, j) => i + j);
    statements.push(
      env.DB.prepare(
        `insert into v3_tag_assignments (id, organization_id, tag_id, asset_id, asset_type, created_by, created_at)
         select 'tas_fill_' || ?1 || '_' || j.value, ?2, ?3, '${prefix}.' || (j.value / 256) || '.' || (j.value % 256), 'host', 'seed', 0
         from json_each(?4) j`,
      ).bind(tagId, org.id, tagId, JSON.stringify(rows)),
    );
  }
  await env.DB.batch(statements);
}

describe("tags", () => {
  it("creates, reads by id or name, lists, updates only the fields given, and deletes", async () => {
    const org = platformOrg("org-tags-life");
    const tag = await createTag(org, "Watched hosts");
    expect(tag).toMatchObject({
      name: "Watched hosts",
      privacy: "shared",
      created_by: org.members[0]!.user_id,
    });
    const byName = await org.json<Result<Tag>>("GET", `/v3/tags/${encodeURIComponent("watched HOSTS")}`);
    expect(byName.body.result.id).toBe(tag.id);
    const updated = await org.json<Result<Tag>>("PUT", `/v3/tags/${tag.id}`, {
      body: { description: "to check daily" },
    });
    expect(updated.body.result).toMatchObject({
      name: "Watched hosts",
      description: "to check daily",
      privacy: "shared",
    });
    const list = await org.json<Result<{ tags: Tag[]; total_size: number }>>(
      "GET",
      "/v3/tags?name=watched%20hosts",
    );
    expect(list.body.result).toMatchObject({ total_size: 1, tags: [{ id: tag.id }] });
    const deleted = await org.call("DELETE", `/v3/tags/${tag.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await org.call("GET", `/v3/tags/${tag.id}`)).status).toBe(404);
  });

  it("compares names after NFC normalisation and in any case: a second spelling is a 409 that writes nothing", async () => {
    const org = platformOrg("org-tags-nfc");
    await createTag(org, "Caf\u00e9");
    const before = await rowCount("v3_tags", "organization_id = ?", org.id);
    for (const name of ["Cafe\u0301", "CAF\u00c9", " caf\u00e9 "]) {
      const { status, body } = await org.json<{ status: number; errors: { location: string }[] }>(
        "POST",
        "/v3/tags",
        {
          body: { name, privacy: "shared" },
        },
      );
      expect(status, name).toBe(409);
      expect(body.errors[0]?.location).toBe("body.name");
    }
    expect(await rowCount("v3_tags", "organization_id = ?", org.id)).toBe(before);
  });

  it("refuses a lone surrogate with 400 and invalid fields with 422, writing nothing", async () => {
    const org = platformOrg("org-tags-invalid");
    const cases: [string, number][] = [
      ['{"name": "bad \\ud800 name", "privacy": "shared"}', 400],
      ['{"name": "ok", "privacy": "shared", "description": "\\udc00"}', 400],
      ['{"name": "ok", "privacy": "public"}', 422],
      ['{"name": "   ", "privacy": "shared"}', 422],
      [JSON.stringify({ name: "x".repeat(256), privacy: "shared" }), 422],
      ['{"name": 5, "privacy": "shared"}', 422],
      ["not json", 400],
    ];
    for (const [raw, status] of cases) {
      const res = await org.call("POST", "/v3/tags", { raw });
      expect(res.status, raw).toBe(status);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect(await rowCount("v3_tags", "organization_id = ?", org.id)).toBe(0);
  });

  it("refuses the tag past the organization's limit with 409", async () => {
    const org = platformOrg("org-tags-cap");
    await env.DB.prepare(
      `insert into v3_tags (id, organization_id, name, name_key, privacy, created_by, created_at, updated_at)
       select 'tag_cap_' || j.value, ?, 'cap ' || j.value, 'cap ' || j.value, 'shared', 'seed', 0, 0 from json_each(?) j`,
    )
      .bind(org.id, JSON.stringify(Array.from({ length: V3_TAGS_MAX }, (_, i) => i)))
      .run();
    const { status, body } = await org.json<{ detail: string }>("POST", "/v3/tags", {
      body: { name: "one more", privacy: "shared" },
    });
    expect(status).toBe(409);
    expect(body.detail).toContain(String(V3_TAGS_MAX));
    expect(await rowCount("v3_tags", "organization_id = ?", org.id)).toBe(V3_TAGS_MAX);
  });

  it("hides a private tag from members who are not admins, and lets only its creator or an admin change it", async () => {
    const org = platformOrg("org-tags-private");
    // Member 2 is only an API user: member 1 (an admin) changes its roles.
    expect(
      (
        await org.call("PATCH", `/v3/accounts/organizations/${org.id}/members/${org.members[1]!.user_id}`, {
          body: { roles: ["api_access"] },
        })
      ).status,
    ).toBe(204);
    const secret = await createTag(org, "admins only", "private");
    const shared = await createTag(org, "everyone", "shared");
    expect((await org.call("GET", `/v3/tags/${secret.id}`, { member: 2 })).status).toBe(404);
    const list = await org.json<Result<{ tags: Tag[] }>>("GET", "/v3/tags", { member: 2 });
    expect(list.body.result.tags.map((t) => t.id)).toEqual([shared.id]);
    // The member's own private tag is theirs to see and change; the admin sees it too.
    const mine = await createTag(org, "mine", "private", 2);
    expect(
      (await org.call("PUT", `/v3/tags/${mine.id}`, { member: 2, body: { description: "x" } })).status,
    ).toBe(200);
    expect((await org.call("GET", `/v3/tags/${mine.id}`)).status).toBe(200);
    // A shared tag may be changed by any member.
    expect(
      (await org.call("PUT", `/v3/tags/${shared.id}`, { member: 2, body: { description: "y" } })).status,
    ).toBe(200);
  });
});

describe("tag assignments", () => {
  it("assigns any asset kind, lists with filters, refuses a second assignment with 409 and unassigns", async () => {
    const org = platformOrg("org-assign");
    const tag = await createTag(org, "assets");
    const [host] = await hostFacts();
    const ids = [host!.ip, "a".repeat(64), "Example.COM:443"];
    const types: string[] = [];
    for (const asset_id of ids) {
      const { status, body } = await org.json<
        Result<{ id: string; asset_id: string; asset_type: string; platform_ref: string }>
      >("POST", `/v3/tags/${tag.id}/assignments`, { body: { asset_id } });
      expect(status).toBe(201);
      types.push(body.result.asset_type);
      expect(body.result.platform_ref).toContain(encodeURIComponent(body.result.asset_id));
    }
    expect(types).toEqual(["host", "certificate", "web_property"]);
    const again = await org.call("POST", `/v3/tags/${tag.id}/assignments`, {
      body: { asset_id: "example.com:443" },
    });
    expect(again.status).toBe(409);
    const certificates = await assignments(org, tag.id, "&asset_type=certificate");
    expect(certificates.map((a) => a.asset_id)).toEqual(["a".repeat(64)]);
    const listed = await org.json<
      Result<{ assignments: { id: string; asset_id: string }[]; total_size: number }>
    >("GET", `/v3/tags/${tag.id}/assignments?asset_id=example.com:443`);
    expect(listed.body.result.total_size).toBe(1);
    const id = listed.body.result.assignments[0]!.id;
    expect((await org.call("DELETE", `/v3/tags/${tag.id}/assignments/${id}`)).status).toBe(204);
    expect((await org.call("DELETE", `/v3/tags/${tag.id}/assignments/${id}`)).status).toBe(404);
  });

  it("refuses what is no asset id with 422, an unknown tag with 404, and the caps with 409, writing nothing", async () => {
    const org = platformOrg("org-assign-refusals");
    const tag = await createTag(org, "full");
    for (const asset_id of ["not an asset", "example.com", "1.2.3.4:99999", ""]) {
      expect(
        (await org.call("POST", `/v3/tags/${tag.id}/assignments`, { body: { asset_id } })).status,
        asset_id,
      ).toBe(422);
    }
    expect(
      (await org.call("POST", "/v3/tags/tag_nope/assignments", { body: { asset_id: "1.2.3.4" } })).status,
    ).toBe(404);
    await fill(org, tag.id, V3_TAG_ASSETS_MAX);
    const full = await org.json<{ detail: string }>("POST", `/v3/tags/${tag.id}/assignments`, {
      body: { asset_id: "1.2.3.4" },
    });
    expect(full.status).toBe(409);
    expect(full.body.detail).toContain("the most a tag may");
    // An asset carrying the most tags it may: its next tag is refused.
    const other = await createTag(org, "one more tag");
    const crowded = "10.99.0.1";
    await env.DB.prepare(
      `insert into v3_tag_assignments (id, organization_id, tag_id, asset_id, asset_type, created_by, created_at)
       select 'tas_crowd_' || j.value, ?, 'tag_elsewhere_' || j.value, ?, 'host', 'seed', 0 from json_each(?) j`,
    )
      .bind(org.id, crowded, JSON.stringify(Array.from({ length: V3_ASSET_TAGS_MAX }, (_, i) => i)))
      .run();
    const before = await rowCount("v3_tag_assignments", "organization_id = ?", org.id);
    const crowdedAnswer = await org.json<{ detail: string }>("POST", `/v3/tags/${other.id}/assignments`, {
      body: { asset_id: crowded },
    });
    expect(crowdedAnswer.status).toBe(409);
    expect(crowdedAnswer.body.detail).toContain("the most an asset may");
    expect(await rowCount("v3_tag_assignments", "organization_id = ?", org.id)).toBe(before);
  });
});

describe("bulk tag operations", () => {
  it("assigns a query's matches a page at a time: pending, running, then succeeded", async () => {
    const org = platformOrg("org-bulk-create");
    const tag = await createTag(org, "every host");
    const hosts = await hostFacts();
    expect(hosts.length).toBeGreaterThan(100);
    const { status, body } = await org.json<Result<Operation>>(
      "POST",
      `/v3/tags/${tag.id}/assignments/bulk-create`,
      {
        body: { query: "host.ip: *" },
      },
    );
    expect(status).toBe(202);
    expect(body.result).toMatchObject({ status: "pending", total_count: hosts.length, processed_count: 0 });
    expect(await assignments(org, tag.id)).toHaveLength(0);
    org.advance(V3_TAG_OPERATION_START_MS);
    expect(await operation(org, tag.id, body.result.id)).toMatchObject({
      status: "running",
      processed_count: 100,
      successful_count: 100,
    });
    expect(await assignments(org, tag.id)).toHaveLength(100);
    org.advance(V3_TAG_OPERATION_STEP_MS * 5);
    const done = await operation(org, tag.id, body.result.id);
    expect(done).toMatchObject({
      status: "succeeded",
      processed_count: hosts.length,
      successful_count: hosts.length,
    });
    expect(done.ended_at).toBeDefined();
    expect((await assignments(org, tag.id)).map((a) => a.asset_id).sort()).toEqual(
      hosts.map((h) => h.ip).sort(),
    );
  });

  it("skips assets the tag has, stops at max_assets, and ends limit_reached at the tag's limit", async () => {
    const org = platformOrg("org-bulk-limits");
    const hosts = await hostFacts();
    const capped = await createTag(org, "ten");
    const ten = await org.json<Result<Operation>>("POST", `/v3/tags/${capped.id}/assignments/bulk-create`, {
      body: { query: "host.ip: *", max_assets: 10 },
    });
    expect(ten.body.result.total_count).toBe(10);
    org.advance(60_000);
    expect(await operation(org, capped.id, ten.body.result.id)).toMatchObject({
      status: "succeeded",
      successful_count: 10,
    });
    const rest = await org.json<Result<Operation>>("POST", `/v3/tags/${capped.id}/assignments/bulk-create`, {
      body: { query: "host.ip: *" },
    });
    org.advance(60_000);
    expect(await operation(org, capped.id, rest.body.result.id)).toMatchObject({
      status: "succeeded",
      processed_count: hosts.length,
      successful_count: hosts.length - 10,
    });
    const near = await createTag(org, "nearly full");
    await fill(org, near.id, V3_TAG_ASSETS_MAX - 50);
    const limited = await org.json<Result<Operation>>("POST", `/v3/tags/${near.id}/assignments/bulk-create`, {
      body: { query: "host.ip: *" },
    });
    org.advance(60_000);
    const end = await operation(org, near.id, limited.body.result.id);
    expect(end).toMatchObject({ status: "limit_reached", successful_count: 50 });
    expect(end.status_message).toContain(String(V3_TAG_ASSETS_MAX));
  });

  it("cancels after the page in progress: what was done stays, nothing more is assigned", async () => {
    const org = platformOrg("org-bulk-cancel");
    const tag = await createTag(org, "partial");
    const started = await org.json<Result<Operation>>("POST", `/v3/tags/${tag.id}/assignments/bulk-create`, {
      body: { query: "host.ip: *" },
    });
    org.advance(V3_TAG_OPERATION_START_MS + V3_TAG_OPERATION_STEP_MS / 2);
    const cancelled = await org.json<Result<Operation>>(
      "POST",
      `/v3/tags/${tag.id}/operations/${started.body.result.id}/cancel`,
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.result).toMatchObject({
      status: "cancelled",
      processed_count: 100,
      successful_count: 100,
    });
    org.advance(60_000);
    expect(await operation(org, tag.id, started.body.result.id)).toMatchObject({
      status: "cancelled",
      successful_count: 100,
    });
    expect(await assignments(org, tag.id)).toHaveLength(100);
    const again = await org.call("POST", `/v3/tags/${tag.id}/operations/${started.body.result.id}/cancel`);
    expect(again.status).toBe(409);
    expect((await org.call("POST", `/v3/tags/${tag.id}/operations/top_unknown/cancel`)).status).toBe(404);
  });

  it("removes the tag's assignments made within a window, and sets total_count when it finishes", async () => {
    const org = platformOrg("org-bulk-delete");
    const tag = await createTag(org, "to clean");
    const [a, b, c] = (await hostFacts()).map((h) => h.ip);
    for (const asset_id of [a, b])
      await org.call("POST", `/v3/tags/${tag.id}/assignments`, { body: { asset_id } });
    org.advance(10_000);
    const window = new Date(org.now() - 1).toISOString();
    await org.call("POST", `/v3/tags/${tag.id}/assignments`, { body: { asset_id: c } });
    org.advance(10);
    const removal = await org.json<Result<Operation>>("POST", `/v3/tags/${tag.id}/assignments/bulk-delete`, {
      body: { created_after: window },
    });
    expect(removal.status).toBe(202);
    expect(removal.body.result).toMatchObject({ status: "pending", total_count: 0 });
    org.advance(V3_TAG_OPERATION_START_MS);
    expect(await operation(org, tag.id, removal.body.result.id)).toMatchObject({
      status: "succeeded",
      total_count: 1,
      successful_count: 1,
    });
    expect((await assignments(org, tag.id)).map((x) => x.asset_id).sort()).toEqual([a, b].sort());
  });

  it("lists operations per tag or for every tag with -, filtered by type and status", async () => {
    const org = platformOrg("org-bulk-list");
    const one = await createTag(org, "one");
    const two = await createTag(org, "two");
    await org.call("POST", `/v3/tags/${one.id}/assignments/bulk-create`, {
      body: { query: "host.services.port: 22" },
    });
    await org.call("POST", `/v3/tags/${two.id}/assignments/bulk-delete`, { body: {} });
    const all = await org.json<Result<{ operations: Operation[]; total_size: number }>>(
      "GET",
      "/v3/tags/-/operations",
    );
    expect(all.body.result.total_size).toBe(2);
    const creates = await org.json<Result<{ total_size: number }>>(
      "GET",
      "/v3/tags/-/operations?type=bulk_create",
    );
    expect(creates.body.result.total_size).toBe(1);
    const pending = await org.json<Result<{ total_size: number }>>(
      "GET",
      `/v3/tags/${two.id}/operations?status=pending`,
    );
    expect(pending.body.result.total_size).toBe(1);
    org.advance(60_000);
    const finished = await org.json<Result<{ total_size: number }>>(
      "GET",
      "/v3/tags/-/operations?status=succeeded",
    );
    expect(finished.body.result.total_size).toBe(2);
  });

  it("refuses a bad query with 422, and a sixth running operation with 409, writing nothing", async () => {
    const org = platformOrg("org-bulk-refusals");
    const tag = await createTag(org, "busy");
    const bad = await org.json<{ errors: { location: string }[] }>(
      "POST",
      `/v3/tags/${tag.id}/assignments/bulk-create`,
      {
        body: { query: "host.services.port: (" },
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]?.location).toBe("body.query");
    for (let i = 0; i < V3_RUNNING_TAG_OPERATIONS_MAX; i++)
      expect(
        (await org.call("POST", `/v3/tags/${tag.id}/assignments/bulk-delete`, { body: {} })).status,
      ).toBe(202);
    const operations = await rowCount("v3_tag_operations", "organization_id = ?", org.id);
    const refused = await org.call("POST", `/v3/tags/${tag.id}/assignments/bulk-create`, {
      body: { query: "host.ip: *" },
    });
    expect(refused.status).toBe(409);
    expect(await rowCount("v3_tag_operations", "organization_id = ?", org.id)).toBe(operations);
    expect(await rowCount("v3_tag_assignments", "organization_id = ?", org.id)).toBe(0);
    // Once they finish, a new one runs.
    org.advance(60_000);
    expect((await org.call("POST", `/v3/tags/${tag.id}/assignments/bulk-delete`, { body: {} })).status).toBe(
      202,
    );
  });

  it("deleting a tag takes its assignments and operations with it", async () => {
    const org = platformOrg("org-bulk-delete-tag");
    const tag = await createTag(org, "short lived");
    await org.call("POST", `/v3/tags/${tag.id}/assignments/bulk-create`, { body: { query: "host.ip: *" } });
    expect(await rowCount("v3_tag_assignments", "tag_id = ?", tag.id)).toBeGreaterThan(0);
    expect((await org.call("DELETE", `/v3/tags/${tag.id}`)).status).toBe(204);
    expect(await rowCount("v3_tag_assignments", "tag_id = ?", tag.id)).toBe(0);
    expect(await rowCount("v3_tag_operations", "tag_id = ?", tag.id)).toBe(0);
  });
});
