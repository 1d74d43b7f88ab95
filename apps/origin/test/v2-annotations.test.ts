import {
  certificateCommentSchema,
  certificateCommentsResultSchema,
  certificateTagsResultSchema,
  hostCommentSchema,
  hostCommentsResultSchema,
  hostTagsResultSchema,
  nameKey,
  tagCertificatesResultSchema,
  tagHostsResultSchema,
  tagSchema,
  tagsListResultSchema,
  v2Envelope,
} from "@scangate/core";
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { annotationTables, expectError, ok, unique } from "./support/annotations";
import { basicAuth, call, configuredAccount } from "./support/requests";

/**
 * The v2 tag and comment API at the origin: each account's own tags and comments in the
 * origin's D1, free of quota, another account's records not found.
 */

const FP = "e58e89a726d80bb0219b218c3ab9d818b4be75d77959508400d660ebe1c1be3d";
const tagEnvelope = v2Envelope(tagSchema);

async function used(): Promise<number> {
  const account = await (await call("GET", "/api/v1/account")).json<{ quota: { used: number } }>();
  return account.quota.used;
}

async function createTag(name = unique("tag"), color?: string) {
  const body = color ? { name, metadata: { color } } : { name };
  return (await ok(await call("POST", "/api/v2/tags", { body }), tagEnvelope)).result;
}

describe("tags at the origin", () => {
  it("are created, listed, read, renamed and deleted, free of quota", async () => {
    const before = await used();
    const name = unique("honeypot");
    const tag = await createTag(name, "#00FF00");
    expect(tag).toMatchObject({ name, metadata: { color: "#00ff00" } });
    expect(tag.id).toMatch(/^tag_/);
    const listed = await ok(await call("GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(listed.result.tags).toContainEqual(tag);
    expect((await ok(await call("GET", `/api/v2/tags/${tag.id}`), tagEnvelope)).result).toEqual(tag);
    const renamed = await ok(
      await call("PUT", `/api/v2/tags/${tag.id}`, { body: { name: `${name}-2` } }),
      tagEnvelope,
    );
    expect(renamed.result).toMatchObject({ id: tag.id, name: `${name}-2`, metadata: { color: "#00ff00" } });
    const recolored = await ok(
      await call("PUT", `/api/v2/tags/${tag.id}`, { body: { name, metadata: { color: "#123abc" } } }),
      tagEnvelope,
    );
    expect(recolored.result.metadata).toEqual({ color: "#123abc" });
    const deleted = await call("DELETE", `/api/v2/tags/${tag.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    await expectError(await call("GET", `/api/v2/tags/${tag.id}`), 404);
    expect(await used()).toBe(before);
  });

  it("renamed concurrently to one name: one wins, every other is a 409, and one tag has the name", async () => {
    const racers = await Promise.all(Array.from({ length: 12 }, () => createTag()));
    const name = unique("contested");
    const answers = await Promise.all(
      racers.map((tag) => call("PUT", `/api/v2/tags/${tag.id}`, { body: { name } })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 200) expect((await ok(res, tagEnvelope)).result.name).toBe(name);
      else await expectError(res, 409, /already exists/);
    }
    const named = await env.DB.prepare("select count(*) as n from annotation_tags where name_key = ?")
      .bind(nameKey(name))
      .first<{ n: number }>();
    expect(named?.n).toBe(1);
  });

  it("go on hosts and certificates, and the lists both ways agree", async () => {
    const tag = await createTag();
    expect((await call("PUT", `/api/v2/hosts/192.0.2.1/tags/${tag.id}`)).status).toBe(204);
    expect((await call("PUT", `/api/v2/hosts/192.0.2.1/tags/${tag.id}`)).status).toBe(204);
    expect((await call("PUT", `/api/v2/certificates/${FP.toUpperCase()}/tags/${tag.id}`)).status).toBe(204);
    const hosts = await ok(
      await call("GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts.map((h) => h.ip)).toEqual(["192.0.2.1"]);
    expect(hosts.result.hosts[0]?.tagged_at).toMatch(/\.\d{6}Z$/);
    const certs = await ok(
      await call("GET", `/api/v2/tags/${tag.id}/certificates`),
      v2Envelope(tagCertificatesResultSchema),
    );
    expect(certs.result.certs).toEqual([expect.objectContaining({ fingerprint: FP })]);
    const onHost = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.1/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(onHost.result).toMatchObject({ ip: "192.0.2.1", tags: [{ id: tag.id }] });
    const onCert = await ok(
      await call("GET", `/api/v2/certificates/${FP}/tags`),
      v2Envelope(certificateTagsResultSchema),
    );
    expect(onCert.result).toMatchObject({ fingerprint: FP, tags: [{ id: tag.id }] });
    expect((await call("DELETE", `/api/v2/hosts/192.0.2.1/tags/${tag.id}`)).status).toBe(204);
    const none = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.1/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(none.result.tags.map((t) => t.id)).not.toContain(tag.id);
  });
});

describe("refused tag requests: a clear 4xx, nothing stored", async () => {
  const taken = await createTag(unique("Taken"));
  const second = await createTag();
  const missing = `tag_${"0".repeat(32)}`;
  const cases: Array<[string, string, string, unknown, number, RegExp]> = [
    ["no name", "POST", "/api/v2/tags", {}, 400, /name/],
    ["an empty name", "POST", "/api/v2/tags", { name: "" }, 400, /name must not be empty/],
    ["a name over 64 characters", "POST", "/api/v2/tags", { name: "n".repeat(65) }, 400, /at most 64/],
    [
      "a bad color",
      "POST",
      "/api/v2/tags",
      { name: unique("c"), metadata: { color: "blue" } },
      400,
      /#rrggbb/,
    ],
    ["an empty body", "POST", "/api/v2/tags", "", 400, /body is required/],
    ["a body that is not JSON", "POST", "/api/v2/tags", "{", 400, /not valid JSON/],
    [
      "a taken name, in another case",
      "POST",
      "/api/v2/tags",
      { name: taken.name.toLowerCase() },
      409,
      /already exists/,
    ],
    [
      "a rename onto a taken name",
      "PUT",
      `/api/v2/tags/${second.id}`,
      { name: taken.name },
      409,
      /already exists/,
    ],
    ["an unknown tag", "GET", `/api/v2/tags/${missing}`, undefined, 404, /not found/],
    ["an update of an unknown tag", "PUT", `/api/v2/tags/${missing}`, { name: "x" }, 404, /not found/],
    ["a delete of an unknown tag", "DELETE", `/api/v2/tags/${missing}`, undefined, 404, /not found/],
    ["the hosts of an unknown tag", "GET", `/api/v2/tags/${missing}/hosts`, undefined, 404, /not found/],
    [
      "the certificates of an unknown tag",
      "GET",
      `/api/v2/tags/${missing}/certificates`,
      undefined,
      404,
      /not found/,
    ],
    [
      "an unknown tag put on a certificate",
      "PUT",
      `/api/v2/certificates/${FP}/tags/${missing}`,
      undefined,
      404,
      /not found/,
    ],
    [
      "a tag taken off a host it is not on",
      "DELETE",
      `/api/v2/hosts/192.0.2.2/tags/${second.id}`,
      undefined,
      404,
      /is not on/,
    ],
    [
      "a tag on something that is not an IP",
      "PUT",
      `/api/v2/hosts/not-an-ip/tags/${second.id}`,
      undefined,
      422,
      /Invalid IP address/,
    ],
    [
      "the tags of a bad fingerprint",
      "GET",
      "/api/v2/certificates/abcd/tags",
      undefined,
      422,
      /Invalid SHA-256 fingerprint/,
    ],
  ];
  for (const [what, method, path, body, status, message] of cases) {
    it(`${what} → ${status}`, async () => {
      const before = await annotationTables();
      await expectError(await call(method, path, { body }), status, message);
      expect(await annotationTables()).toEqual(before);
    });
  }
});

describe("comments at the origin", () => {
  it("are added, listed, read, edited and deleted by the account, with its API id as author", async () => {
    const before = await used();
    const account = configuredAccount();
    const added = await ok(
      await call("POST", "/api/v2/hosts/192.0.2.3/comments", { body: { contents: "**first**" } }),
      v2Envelope(hostCommentSchema),
    );
    expect(added.result).toMatchObject({ ip: "192.0.2.3", author_id: account.api_id, contents: "**first**" });
    await call("POST", "/api/v2/hosts/192.0.2.3/comments", { body: { contents: "second" } });
    const listed = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.3/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.comments.map((c) => c.contents)).toEqual(["**first**", "second"]);
    const edited = await ok(
      await call("PUT", `/api/v2/hosts/192.0.2.3/comments/${added.result.id}`, {
        body: { contents: "edited" },
      }),
      v2Envelope(hostCommentSchema),
    );
    expect(edited.result).toMatchObject({ id: added.result.id, contents: "edited" });
    // A delete answers 204 with no body, not the comments left.
    const deleted = await call("DELETE", `/api/v2/hosts/192.0.2.3/comments/${added.result.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    const left = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.3/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(left.result.comments.map((c) => c.contents)).toEqual(["second"]);
    expect(await used()).toBe(before);
  });

  it("work on certificates, named by fingerprint", async () => {
    const added = await ok(
      await call("POST", `/api/v2/certificates/${FP}/comments`, { body: { contents: "weak key" } }),
      v2Envelope(certificateCommentSchema),
    );
    expect(added.result.fingerprint).toBe(FP);
    const one = await ok(
      await call("GET", `/api/v2/certificates/${FP}/comments/${added.result.id}`),
      v2Envelope(certificateCommentSchema),
    );
    expect(one.result).toEqual(added.result);
    const listed = await ok(
      await call("GET", `/api/v2/certificates/${FP}/comments`),
      v2Envelope(certificateCommentsResultSchema),
    );
    expect(listed.result.comments.map((c) => c.id)).toContain(added.result.id);
  });

  const refusals: Array<[string, string, (id: string) => string, unknown, number, RegExp]> = [
    ["no contents", "POST", () => "/api/v2/hosts/192.0.2.4/comments", {}, 400, /contents/],
    [
      "blank contents",
      "POST",
      () => "/api/v2/hosts/192.0.2.4/comments",
      { contents: " " },
      400,
      /must not be empty/,
    ],
    [
      "contents over 4096 characters",
      "POST",
      () => "/api/v2/hosts/192.0.2.4/comments",
      { contents: "x".repeat(4097) },
      400,
      /at most 4096/,
    ],
    [
      "a comment on something that is not an IP",
      "POST",
      () => "/api/v2/hosts/1.2.3/comments",
      { contents: "x" },
      422,
      /Invalid IP address/,
    ],
    [
      "a comment on a bad fingerprint",
      "GET",
      () => `/api/v2/certificates/${"z".repeat(64)}/comments`,
      undefined,
      422,
      /fingerprint/,
    ],
    [
      "an unknown comment",
      "GET",
      () => "/api/v2/hosts/192.0.2.4/comments/cmt_0",
      undefined,
      404,
      /not found/,
    ],
    [
      "an edit of an unknown comment",
      "PUT",
      () => "/api/v2/hosts/192.0.2.4/comments/cmt_0",
      { contents: "x" },
      404,
      /not found/,
    ],
    [
      "a delete of an unknown comment",
      "DELETE",
      () => "/api/v2/hosts/192.0.2.4/comments/cmt_0",
      undefined,
      404,
      /not found/,
    ],
    [
      "a comment read through another host",
      "GET",
      (id) => `/api/v2/hosts/192.0.2.5/comments/${id}`,
      undefined,
      404,
      /not found/,
    ],
    [
      "an edit with no contents",
      "PUT",
      (id) => `/api/v2/hosts/192.0.2.4/comments/${id}`,
      { text: "x" },
      400,
      /contents/,
    ],
  ];
  for (const [what, method, path, body, status, message] of refusals) {
    it(`refuses ${what} → ${status}, nothing stored`, async () => {
      const existing = await ok(
        await call("POST", "/api/v2/hosts/192.0.2.4/comments", { body: { contents: unique("note") } }),
        v2Envelope(hostCommentSchema),
      );
      const before = await annotationTables();
      await expectError(await call(method, path(existing.result.id), { body }), status, message);
      expect(await annotationTables()).toEqual(before);
    });
  }
});

describe("another account", () => {
  // The worker with a second account configured beside the first (same D1).
  const other = {
    api_id: "other-team",
    api_secret: "other-secret",
    login: "other",
    email: "o@x",
    allowance: 10,
  };
  const twoAccounts = {
    ...env,
    ORIGIN_ACCOUNTS: JSON.stringify([...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), other]),
  };
  const app = createApp();
  const asOther = (method: string, path: string, body?: unknown) =>
    app.fetch(
      new Request(`http://origin.test${path}`, {
        method,
        headers: {
          Authorization: basicAuth(other.api_id, other.api_secret),
          "Content-Type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      twoAccounts,
      createExecutionContext(),
    );

  it("sees none of this account's tags or comments, and cannot change them", async () => {
    const tag = await createTag();
    const comment = await ok(
      await call("POST", "/api/v2/hosts/192.0.2.6/comments", { body: { contents: "private" } }),
      v2Envelope(hostCommentSchema),
    );
    const before = await annotationTables();
    const theirs = await ok(await asOther("GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(theirs.result.tags.map((t) => t.id)).not.toContain(tag.id);
    await expectError(await asOther("GET", `/api/v2/tags/${tag.id}`), 404);
    await expectError(await asOther("DELETE", `/api/v2/tags/${tag.id}`), 404);
    await expectError(await asOther("PUT", `/api/v2/hosts/192.0.2.6/tags/${tag.id}`), 404);
    const comments = await ok(
      await asOther("GET", "/api/v2/hosts/192.0.2.6/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(comments.result.comments).toEqual([]);
    await expectError(
      await asOther("PUT", `/api/v2/hosts/192.0.2.6/comments/${comment.result.id}`, { contents: "x" }),
      404,
    );
    await expectError(await asOther("DELETE", `/api/v2/hosts/192.0.2.6/comments/${comment.result.id}`), 404);
    expect(await annotationTables()).toEqual(before);
    // The same name is free in another account's set.
    const same = await asOther("POST", "/api/v2/tags", { name: tag.name });
    expect(same.status).toBe(200);
  });
});
