import { env } from "cloudflare:workers";
import { V3_ASSET_COMMENTS_MAX, V3_COMMENT_MAX_CHARS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { platformOrg, rowCount } from "./support/platform-org";

beforeAll(() => seedTestDataset());

interface Comment {
  id: string;
  asset_id: string;
  asset_type: string;
  body: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}
type Result<T> = { result: T };

describe("comments", () => {
  it("comments on an asset, lists the organization's by asset and creator, edits and deletes", async () => {
    const org = platformOrg("org-comments");
    const made = await org.json<Result<Comment>>("POST", "/v3/comments", {
      body: { asset_id: "Shop.Example.com:443", body: "Checkout page moved." },
    });
    expect(made.status).toBe(201);
    expect(made.body.result).toMatchObject({
      asset_id: "shop.example.com:443",
      asset_type: "web_property",
      created_by: org.members[0]!.user_id,
    });
    await org.json("POST", "/v3/comments", { member: 2, body: { asset_id: "8.8.8.8", body: "A resolver." } });
    const byAsset = await org.json<Result<{ comments: Comment[]; total_size: number }>>(
      "GET",
      "/v3/comments?asset_id=shop.example.com%3A443",
    );
    expect(byAsset.body.result.comments.map((c) => c.id)).toEqual([made.body.result.id]);
    const byMember = await org.json<Result<{ total_size: number }>>(
      "GET",
      `/v3/comments?created_by=${org.members[1]!.user_id}`,
    );
    expect(byMember.body.result.total_size).toBe(1);
    org.advance(5_000);
    const edited = await org.json<Result<Comment>>("PUT", `/v3/comments/${made.body.result.id}`, {
      body: { body: "Checkout page moved again." },
    });
    expect(edited.body.result.body).toBe("Checkout page moved again.");
    expect(Date.parse(edited.body.result.updated_at)).toBeGreaterThan(
      Date.parse(edited.body.result.created_at),
    );
    expect((await org.call("DELETE", `/v3/comments/${made.body.result.id}`)).status).toBe(204);
    expect(
      (await org.call("PUT", `/v3/comments/${made.body.result.id}`, { body: { body: "x" } })).status,
    ).toBe(404);
  });

  it("lets only the creator edit, and the creator or an admin delete", async () => {
    const org = platformOrg("org-comments-rights", { members: 3 });
    await org.call("PATCH", `/v3/accounts/organizations/${org.id}/members/${org.members[2]!.user_id}`, {
      body: { roles: ["api_access"] },
    });
    const { body } = await org.json<Result<Comment>>("POST", "/v3/comments", {
      member: 2,
      body: { asset_id: "1.1.1.1", body: "mine" },
    });
    const id = body.result.id;
    expect(
      (await org.call("PUT", `/v3/comments/${id}`, { member: 1, body: { body: "theirs" } })).status,
    ).toBe(403);
    expect((await org.call("DELETE", `/v3/comments/${id}`, { member: 3 })).status).toBe(403);
    expect(await rowCount("v3_comments", "id = ?", id)).toBe(1);
    expect((await org.call("DELETE", `/v3/comments/${id}`, { member: 1 })).status).toBe(204);
  });

  it("refuses a lone surrogate with 400, a bad asset or body with 422, and an asset's limit with 409, writing nothing", async () => {
    const org = platformOrg("org-comments-refusals");
    const cases: [string, number][] = [
      ['{"asset_id": "1.1.1.1", "body": "\\ud83d alone"}', 400],
      ['{"asset_id": "no asset", "body": "x"}', 422],
      ['{"asset_id": "1.1.1.1", "body": "  "}', 422],
      [JSON.stringify({ asset_id: "1.1.1.1", body: "x".repeat(V3_COMMENT_MAX_CHARS + 1) }), 422],
      ['{"asset_id": "1.1.1.1"}', 422],
    ];
    for (const [raw, status] of cases)
      expect((await org.call("POST", "/v3/comments", { raw })).status, raw).toBe(status);
    await env.DB.prepare(
      `insert into v3_comments (id, organization_id, asset_id, asset_type, body, created_by, created_at, updated_at)
       select 'cmt_full_' || j.value, ?, '9.9.9.9', 'host', 'x', 'seed', 0, 0 from json_each(?) j`,
    )
      .bind(org.id, JSON.stringify(Array.from({ length: V3_ASSET_COMMENTS_MAX }, (_, i) => i)))
      .run();
    const full = await org.json<{ detail: string }>("POST", "/v3/comments", {
      body: { asset_id: "9.9.9.9", body: "one more" },
    });
    expect(full.status).toBe(409);
    expect(await rowCount("v3_comments", "organization_id = ?", org.id)).toBe(V3_ASSET_COMMENTS_MAX);
  });

  it("keeps each organization's comments to itself", async () => {
    const mine = platformOrg("org-comments-a");
    const theirs = platformOrg("org-comments-b");
    const { body } = await mine.json<Result<Comment>>("POST", "/v3/comments", {
      body: { asset_id: "1.1.1.1", body: "ours" },
    });
    expect((await theirs.call("DELETE", `/v3/comments/${body.result.id}`)).status).toBe(404);
    const list = await theirs.json<Result<{ total_size: number }>>("GET", "/v3/comments");
    expect(list.body.result.total_size).toBe(0);
  });
});
