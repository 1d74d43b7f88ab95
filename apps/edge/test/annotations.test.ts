import {
  adminCommentDeleteResultSchema,
  auditListSchema,
  certificateCommentsResultSchema,
  certificateTagsResultSchema,
  hostCommentSchema,
  hostCommentsResultSchema,
  hostTagsResultSchema,
  nameKey,
  tagCertificatesResultSchema,
  tagHostsResultSchema,
  tagsListResultSchema,
  v2Envelope,
  type TenantWithSecret,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  annotationTables,
  callAs,
  countOf,
  createTag as createTagAs,
  expectError,
  FP,
  ok,
  tagEnvelope,
  unique,
} from "./support/annotations";
import { admin, buildRequest, createTenant, EDGE, tenantAuth, type Fetch } from "./support/requests";
import { testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

/**
 * The team's tags and comments (the v2 tag and comment API): answered by the edge from its own
 * D1, shared by every tenant, never forwarded upstream and free of quota.
 */

const edge = testEdge();

function call(tenant: TenantWithSecret, method: string, path: string, body?: unknown, fetcher?: Fetch) {
  return callAs(fetcher ?? edge.fetch, tenant, method, path, body);
}

async function usedOf(tenantId: string): Promise<number> {
  const row = { used: await ledgerUsed(tenantId) };
  return row?.used ?? -1;
}

const createTag = (tenant: TenantWithSecret, name?: string, color?: string) =>
  createTagAs(edge.fetch, tenant, name, color);

describe("tags are the team's", async () => {
  const a = await createTenant({ allowance: 10 }, edge.fetch);
  const b = await createTenant({ allowance: 10 }, edge.fetch);

  it("a tag one tenant creates is listed, read, renamed and used by another, with no upstream call or quota", async () => {
    const sentBefore = edge.upstream.requests.length;
    const name = unique("honeypot");
    const created = await createTag(a, name, "#FF0000");
    expect(created).toMatchObject({ name, metadata: { color: "#ff0000" } });
    expect(created.id).toMatch(/^tag_/);
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const listed = await ok(await call(b, "GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(listed.result.tags).toContainEqual(created);
    expect((await ok(await call(b, "GET", `/api/v2/tags/${created.id}`), tagEnvelope)).result).toEqual(
      created,
    );

    edge.clock.advance(1_000);
    const renamed = await ok(
      await call(b, "PUT", `/api/v2/tags/${created.id}`, { name: `${name}-renamed` }),
      tagEnvelope,
    );
    // Without metadata the color is kept; updated_at moves, created_at does not.
    expect(renamed.result).toMatchObject({ name: `${name}-renamed`, metadata: { color: "#ff0000" } });
    expect(renamed.result.created_at).toBe(created.created_at);
    expect(renamed.result.updated_at > created.updated_at).toBe(true);
    const cleared = await ok(
      await call(a, "PUT", `/api/v2/tags/${created.id}`, { name, metadata: {} }),
      tagEnvelope,
    );
    expect(cleared.result.metadata).toEqual({});

    expect(edge.upstream.requests.length).toBe(sentBefore);
    expect(await usedOf(a.id)).toBe(0);
    expect(await usedOf(b.id)).toBe(0);
  });

  it("concurrent renames to one name: one wins, every other is a 409, and one tag has the name", async () => {
    const racers = await Promise.all(Array.from({ length: 12 }, () => createTag(a)));
    const name = unique("contested");
    const answers = await Promise.all(
      racers.map((tag) => call(b, "PUT", `/api/v2/tags/${tag.id}`, { name })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 200) expect((await ok(res, tagEnvelope)).result.name).toBe(name);
      else await expectError(res, 409, /already exists/);
    }
    expect(await countOf("annotation_tags", "name_key = ?", nameKey(name))).toBe(1);
  });

  it("goes on hosts and certificates; the tag's lists and the documents' lists agree", async () => {
    const tag = await createTag(a);
    const other = await createTag(b);
    expect((await call(b, "PUT", `/api/v2/hosts/192.0.2.7/tags/${tag.id}`)).status).toBe(204);
    expect((await call(a, "PUT", `/api/v2/hosts/2001:DB8::1/tags/${tag.id}`)).status).toBe(204);
    expect((await call(a, "PUT", `/api/v2/certificates/${FP.toUpperCase()}/tags/${tag.id}`)).status).toBe(
      204,
    );
    expect((await call(a, "PUT", `/api/v2/hosts/192.0.2.7/tags/${other.id}`)).status).toBe(204);
    // Again: no change, still 204, still one link.
    const before = await annotationTables();
    const again = await call(a, "PUT", `/api/v2/hosts/192.0.2.7/tags/${tag.id}`);
    expect(again.status).toBe(204);
    expect(await again.text()).toBe("");
    expect(await annotationTables()).toEqual(before);

    const hosts = await ok(
      await call(b, "GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts.map((h) => h.ip)).toEqual(["192.0.2.7", "2001:db8::1"]);
    const certs = await ok(
      await call(b, "GET", `/api/v2/tags/${tag.id}/certificates`),
      v2Envelope(tagCertificatesResultSchema),
    );
    expect(certs.result.certs.map((c) => c.fingerprint)).toEqual([FP]);

    const onHost = await ok(
      await call(b, "GET", "/api/v2/hosts/192.0.2.7/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(onHost.result.ip).toBe("192.0.2.7");
    expect(onHost.result.tags.map((t) => t.id).sort()).toEqual([tag.id, other.id].sort());
    const onCert = await ok(
      await call(b, "GET", `/api/v2/certificates/${FP}/tags`),
      v2Envelope(certificateTagsResultSchema),
    );
    expect(onCert.result).toMatchObject({ fingerprint: FP, tags: [{ id: tag.id }] });

    expect((await call(b, "DELETE", `/api/v2/hosts/192.0.2.7/tags/${tag.id}`)).status).toBe(204);
    const after = await ok(
      await call(a, "GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(after.result.hosts.map((h) => h.ip)).toEqual(["2001:db8::1"]);

    // Deleting the tag takes it off every document.
    const deleted = await call(b, "DELETE", `/api/v2/tags/${tag.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    await expectError(await call(a, "GET", `/api/v2/tags/${tag.id}`), 404);
    const left = await ok(
      await call(a, "GET", "/api/v2/hosts/2001:db8::1/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(left.result.tags).toEqual([]);
    const links = await env.DB.prepare("select count(*) as n from annotation_tagged where tag_id = ?")
      .bind(tag.id)
      .first<{ n: number }>();
    expect(links?.n).toBe(0);
  });
});

describe("refused tag requests: a clear 4xx in the v2 shape, nothing stored", async () => {
  const a = await createTenant({ allowance: 10 }, edge.fetch);
  const taken = await createTag(a, unique("Taken"));
  const second = await createTag(a);
  const missing = "tag_00000000000000000000000000000000";
  const cases: Array<[string, string, string, unknown, number, RegExp]> = [
    ["no name", "POST", "/api/v2/tags", {}, 400, /name/],
    ["an empty name", "POST", "/api/v2/tags", { name: "   " }, 400, /name must not be empty/],
    ["a name over 64 characters", "POST", "/api/v2/tags", { name: "x".repeat(65) }, 400, /at most 64/],
    ["a name that is not a string", "POST", "/api/v2/tags", { name: 7 }, 400, /name/],
    [
      "a bad color",
      "POST",
      "/api/v2/tags",
      { name: unique("c"), metadata: { color: "red" } },
      400,
      /#rrggbb/,
    ],
    [
      "a short color",
      "POST",
      "/api/v2/tags",
      { name: unique("c"), metadata: { color: "#fff" } },
      400,
      /#rrggbb/,
    ],
    [
      "metadata that is not an object",
      "POST",
      "/api/v2/tags",
      { name: unique("c"), metadata: "x" },
      400,
      /metadata/,
    ],
    ["a body that is not JSON", "POST", "/api/v2/tags", "{name", 400, /not valid JSON/],
    [
      "a taken name, in another case",
      "POST",
      "/api/v2/tags",
      { name: taken.name.toUpperCase() },
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
    [
      "a rename with a bad color",
      "PUT",
      `/api/v2/tags/${second.id}`,
      { name: "ok", metadata: { color: "#12345g" } },
      400,
      /#rrggbb/,
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
      "an unknown tag put on a host",
      "PUT",
      `/api/v2/hosts/192.0.2.1/tags/${missing}`,
      undefined,
      404,
      /not found/,
    ],
    [
      "a tag taken off a host it is not on",
      "DELETE",
      `/api/v2/hosts/192.0.2.1/tags/${second.id}`,
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
      "the tags of something that is not an IP",
      "GET",
      "/api/v2/hosts/300.1.1.1/tags",
      undefined,
      422,
      /Invalid IP address/,
    ],
    [
      "a tag on a bad fingerprint",
      "PUT",
      `/api/v2/certificates/abc/tags/${second.id}`,
      undefined,
      422,
      /Invalid SHA-256 fingerprint/,
    ],
    [
      "the tags of a bad fingerprint",
      "GET",
      `/api/v2/certificates/${"g".repeat(64)}/tags`,
      undefined,
      422,
      /fingerprint/,
    ],
  ];
  for (const [what, method, path, body, status, message] of cases) {
    it(`${what} → ${status}`, async () => {
      const before = await annotationTables();
      await expectError(await call(a, method, path, body), status, message);
      expect(await annotationTables()).toEqual(before);
    });
  }

  it("a body sent without a JSON content type → 415, nothing stored", async () => {
    const before = await annotationTables();
    const res = await edge.fetch(
      new Request(`${EDGE}/api/v2/tags`, {
        method: "POST",
        headers: { authorization: tenantAuth(a), "content-type": "text/plain" },
        body: JSON.stringify({ name: unique("t") }),
      }),
    );
    await expectError(res, 415);
    expect(await annotationTables()).toEqual(before);
  });

  it("a tag route with a method it does not take → 405 with Allow", async () => {
    const res = await call(a, "PATCH", `/api/v2/tags/${second.id}`, { name: "x" });
    await expectError(res, 405);
    expect(res.headers.get("allow")).toMatch(/PUT/);
  });
});

describe("comments carry their author", async () => {
  const a = await createTenant({ allowance: 10 }, edge.fetch);
  const b = await createTenant({ allowance: 10 }, edge.fetch);
  const comment = v2Envelope(hostCommentSchema);

  it("every tenant reads them; only the author edits or deletes (403 for another, nothing changed)", async () => {
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/198.51.100.9/comments", { contents: "**seen scanning**" }),
      comment,
    );
    expect(added.result).toMatchObject({
      ip: "198.51.100.9",
      author_id: a.id,
      contents: "**seen scanning**",
    });
    expect(added.result.id).toMatch(/^cmt_/);
    await ok(
      await call(b, "POST", "/api/v2/hosts/198.51.100.9/comments", { contents: "confirmed" }),
      comment,
    );

    const listed = await ok(
      await call(b, "GET", "/api/v2/hosts/198.51.100.9/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.ip).toBe("198.51.100.9");
    expect(listed.result.comments.map((c) => [c.author_id, c.contents])).toEqual([
      [a.id, "**seen scanning**"],
      [b.id, "confirmed"],
    ]);
    const one = await ok(
      await call(b, "GET", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`),
      comment,
    );
    expect(one.result).toEqual(added.result);

    const before = await annotationTables();
    await expectError(
      await call(b, "PUT", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`, {
        contents: "mine now",
      }),
      403,
      /only its author/,
    );
    await expectError(await call(b, "DELETE", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`), 403);
    expect(await annotationTables()).toEqual(before);

    const edited = await ok(
      await call(a, "PUT", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`, { contents: "edited" }),
      comment,
    );
    expect(edited.result).toMatchObject({
      id: added.result.id,
      contents: "edited",
      created_at: added.result.created_at,
    });
    // A delete answers 204 with no body, not the comments left.
    const deleted = await call(a, "DELETE", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    const left = await ok(
      await call(b, "GET", "/api/v2/hosts/198.51.100.9/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(left.result.comments.map((c) => c.contents)).toEqual(["confirmed"]);
    await expectError(await call(a, "GET", `/api/v2/hosts/198.51.100.9/comments/${added.result.id}`), 404);
  });

  it("work on certificates too, named by fingerprint in any case", async () => {
    const added = await ok(
      await call(a, "POST", `/api/v2/certificates/${FP.toUpperCase()}/comments`, {
        contents: "expired soon",
      }),
      v2Envelope(certificateCommentsResultSchema.shape.comments.element),
    );
    expect(added.result).toMatchObject({ fingerprint: FP, author_id: a.id });
    const listed = await ok(
      await call(b, "GET", `/api/v2/certificates/${FP}/comments`),
      v2Envelope(certificateCommentsResultSchema),
    );
    expect(listed.result.comments.map((c) => c.id)).toContain(added.result.id);
  });

  const refusals: Array<[string, string, (id: string) => string, unknown, number, RegExp]> = [
    ["no contents", "POST", () => "/api/v2/hosts/192.0.2.50/comments", {}, 400, /contents/],
    [
      "blank contents",
      "POST",
      () => "/api/v2/hosts/192.0.2.50/comments",
      { contents: "  " },
      400,
      /must not be empty/,
    ],
    [
      "contents over 4096 characters",
      "POST",
      () => "/api/v2/hosts/192.0.2.50/comments",
      { contents: "x".repeat(4097) },
      400,
      /at most 4096/,
    ],
    [
      "a comment on something that is not an IP",
      "POST",
      () => "/api/v2/hosts/example.com/comments",
      { contents: "x" },
      422,
      /Invalid IP address/,
    ],
    [
      "a comment on a bad fingerprint",
      "POST",
      () => "/api/v2/certificates/1234/comments",
      { contents: "x" },
      422,
      /fingerprint/,
    ],
    [
      "an unknown comment",
      "GET",
      () => "/api/v2/hosts/192.0.2.50/comments/cmt_0",
      undefined,
      404,
      /not found/,
    ],
    [
      "an edit of an unknown comment",
      "PUT",
      () => "/api/v2/hosts/192.0.2.50/comments/cmt_0",
      { contents: "x" },
      404,
      /not found/,
    ],
    [
      "a delete of an unknown comment",
      "DELETE",
      () => "/api/v2/hosts/192.0.2.50/comments/cmt_0",
      undefined,
      404,
      /not found/,
    ],
    [
      "a comment read through another host",
      "GET",
      (id) => `/api/v2/hosts/192.0.2.51/comments/${id}`,
      undefined,
      404,
      /not found/,
    ],
    [
      "a comment read as a certificate's",
      "GET",
      (id) => `/api/v2/certificates/${FP}/comments/${id}`,
      undefined,
      404,
      /not found/,
    ],
    [
      "an edit with blank contents",
      "PUT",
      (id) => `/api/v2/hosts/192.0.2.50/comments/${id}`,
      { contents: "" },
      400,
      /must not be empty/,
    ],
  ];
  for (const [what, method, path, body, status, message] of refusals) {
    it(`refuses ${what} → ${status}, nothing stored`, async () => {
      const existing = await ok(
        await call(a, "POST", "/api/v2/hosts/192.0.2.50/comments", { contents: unique("note") }),
        comment,
      );
      const before = await annotationTables();
      await expectError(await call(a, method, path(existing.result.id), body), status, message);
      expect(await annotationTables()).toEqual(before);
    });
  }
});

describe("the admin removes any comment", async () => {
  const a = await createTenant({ allowance: 10 }, edge.fetch);

  it("DELETE /admin/comments/:id removes it, audits it as the admin's, and a second time is 404", async () => {
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/203.0.113.5/comments", { contents: "spam" }),
      v2Envelope(hostCommentSchema),
    );
    const res = await admin("DELETE", `/admin/comments/${added.result.id}`, undefined, edge.fetch);
    const removed = await ok(res, adminCommentDeleteResultSchema);
    expect(removed.deleted).toMatchObject({
      id: added.result.id,
      index: "hosts",
      document: "203.0.113.5",
      author_id: a.id,
    });
    await expectError(await call(a, "GET", `/api/v2/hosts/203.0.113.5/comments/${added.result.id}`), 404);
    await expectError(
      await admin("DELETE", `/admin/comments/${added.result.id}`, undefined, edge.fetch),
      404,
    );

    const audit = auditListSchema.parse(
      await (await admin("GET", `/admin/audit?tenant_id=${a.id}&limit=1`, undefined, edge.fetch)).json(),
    );
    expect(audit.entries[0]).toMatchObject({
      actor: "admin",
      action: "comment.delete",
      before: { id: added.result.id },
    });
  });

  it("refuses the removal without the admin token", async () => {
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/203.0.113.6/comments", { contents: "keep" }),
      v2Envelope(hostCommentSchema),
    );
    const res = await edge.fetch(
      buildRequest("DELETE", `/admin/comments/${added.result.id}`, { auth: tenantAuth(a) }),
    );
    expect(res.status).toBe(401);
    expect((await call(a, "GET", `/api/v2/hosts/203.0.113.6/comments/${added.result.id}`)).status).toBe(200);
  });
});

describe("every change is in the audit log", () => {
  it("tag create, update, attach, detach, delete and comment create, update, delete, as the tenant", async () => {
    const a = await createTenant({ allowance: 10 }, edge.fetch);
    const tag = await createTag(a);
    await call(a, "PUT", `/api/v2/tags/${tag.id}`, { name: unique("renamed") });
    await call(a, "PUT", `/api/v2/hosts/192.0.2.9/tags/${tag.id}`);
    await call(a, "PUT", `/api/v2/hosts/192.0.2.9/tags/${tag.id}`); // no change: not audited
    await call(a, "DELETE", `/api/v2/hosts/192.0.2.9/tags/${tag.id}`);
    await call(a, "DELETE", `/api/v2/tags/${tag.id}`);
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/192.0.2.9/comments", { contents: "one" }),
      v2Envelope(hostCommentSchema),
    );
    await call(a, "PUT", `/api/v2/hosts/192.0.2.9/comments/${added.result.id}`, { contents: "two" });
    await call(a, "DELETE", `/api/v2/hosts/192.0.2.9/comments/${added.result.id}`);
    // A refused change is not audited.
    await call(a, "POST", "/api/v2/tags", { name: "" });

    const { entries } = auditListSchema.parse(
      await (await admin("GET", `/admin/audit?tenant_id=${a.id}`, undefined, edge.fetch)).json(),
    );
    expect(entries.map((e) => e.action).reverse()).toEqual([
      "tenant.create",
      "tag.create",
      "tag.update",
      "tag.attach",
      "tag.detach",
      "tag.delete",
      "comment.create",
      "comment.update",
      "comment.delete",
    ]);
    expect(new Set(entries.slice(0, -1).map((e) => e.actor))).toEqual(new Set([a.id]));
    const update = entries.find((e) => e.action === "comment.update");
    expect(update).toMatchObject({ before: { contents: "one" }, after: { contents: "two" } });
  });
});

describe("the tenant dashboard", () => {
  it("lists the tenant's recent tags and comments, and not another tenant's", async () => {
    const a = await createTenant({ allowance: 10 }, edge.fetch);
    const b = await createTenant({ allowance: 10 }, edge.fetch);
    const mine = await createTag(a, unique("mine"), "#00aa00");
    const theirs = await createTag(b, unique("theirs"));
    await call(a, "POST", "/api/v2/hosts/192.0.2.77/comments", { contents: "a's <b>note</b>" });
    await call(b, "POST", "/api/v2/hosts/192.0.2.77/comments", { contents: "b's note" });

    const login = await edge.fetch(
      new Request(`${EDGE}/dashboard/login`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: EDGE,
          "sec-fetch-site": "same-origin",
          "cf-connecting-ip": "198.51.100.200",
        },
        body: new URLSearchParams({ api_id: a.api_id, secret: a.api_secret }).toString(),
        redirect: "manual",
      }),
    );
    expect(login.status).toBe(303);
    const cookie = (login.headers.getSetCookie().find((c) => c.startsWith("sg_tenant=")) ?? "").split(
      ";",
    )[0]!;
    const html = await (await edge.fetch(new Request(`${EDGE}/dashboard`, { headers: { cookie } }))).text();
    expect(html).toContain("Your recent tags and comments");
    expect(html).toContain(`data-tag-name="${mine.name}"`);
    expect(html).toContain('fill="#00aa00"');
    // Escaped, never markup.
    expect(html).toContain("a&#39;s &lt;b&gt;note&lt;/b&gt;");
    expect(html).not.toContain(theirs.name);
    expect(html).not.toContain("b&#39;s note");
  });

  it("says so when the tenant has none", async () => {
    const a = await createTenant({ allowance: 10 }, edge.fetch);
    const login = await edge.fetch(
      new Request(`${EDGE}/dashboard/login`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: EDGE,
          "sec-fetch-site": "same-origin",
          "cf-connecting-ip": "198.51.100.201",
        },
        body: new URLSearchParams({ api_id: a.api_id, secret: a.api_secret }).toString(),
        redirect: "manual",
      }),
    );
    const cookie = (login.headers.getSetCookie().find((c) => c.startsWith("sg_tenant=")) ?? "").split(
      ";",
    )[0]!;
    const html = await (await edge.fetch(new Request(`${EDGE}/dashboard`, { headers: { cookie } }))).text();
    expect(html).toContain('data-figure="no-annotations"');
  });
});

describe("a host is one host however its IPv6 address is spelled (RFC 5952)", async () => {
  const a = await createTenant({ allowance: 10 }, edge.fetch);
  const comment = v2Envelope(hostCommentSchema);
  /** The stored `document` of the host rows of `table` whose `column` is `value`. */
  const storedDocuments = async (table: string, column: string, value: string) =>
    (
      await env.DB.prepare(`select document from ${table} where "index" = 'hosts' and ${column} = ?`)
        .bind(value)
        .all<{ document: string }>()
    ).results.map((row) => row.document);

  it("a comment added through one spelling is read, edited and deleted through the others", async () => {
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/2001:DB8:0:0:0:0:0:2a/comments", { contents: "one host" }),
      comment,
    );
    expect(added.result.ip).toBe("2001:db8::2a");
    expect(await storedDocuments("annotation_comments", "id", added.result.id)).toEqual(["2001:db8::2a"]);
    for (const spelling of ["2001:db8::2a", "2001:0db8::002A", "2001:db8:0:0:0:0:0:2a"]) {
      const listed = await ok(
        await call(a, "GET", `/api/v2/hosts/${spelling}/comments`),
        v2Envelope(hostCommentsResultSchema),
      );
      expect(listed.result).toMatchObject({ ip: "2001:db8::2a", comments: [{ id: added.result.id }] });
      const one = await ok(
        await call(a, "GET", `/api/v2/hosts/${spelling}/comments/${added.result.id}`),
        comment,
      );
      expect(one.result.ip).toBe("2001:db8::2a");
    }
    const edited = await ok(
      await call(a, "PUT", `/api/v2/hosts/2001:0DB8::2A/comments/${added.result.id}`, { contents: "edited" }),
      comment,
    );
    expect(edited.result).toMatchObject({ ip: "2001:db8::2a", contents: "edited" });
    expect(
      (await call(a, "DELETE", `/api/v2/hosts/2001:db8:0::0:2a/comments/${added.result.id}`)).status,
    ).toBe(204);
  });

  it("a tag put on through one spelling is listed, and taken off, through the others", async () => {
    const tag = await createTag(a);
    expect((await call(a, "PUT", `/api/v2/hosts/2001:0db8::1:0:0:1/tags/${tag.id}`)).status).toBe(204);
    // Another spelling of the same address: no second link.
    const before = await annotationTables();
    expect((await call(a, "PUT", `/api/v2/hosts/2001:DB8:0:0:1::1/tags/${tag.id}`)).status).toBe(204);
    expect(await annotationTables()).toEqual(before);
    expect(await storedDocuments("annotation_tagged", "tag_id", tag.id)).toEqual(["2001:db8::1:0:0:1"]);

    const hosts = await ok(
      await call(a, "GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts.map((h) => h.ip)).toEqual(["2001:db8::1:0:0:1"]);
    const onHost = await ok(
      await call(a, "GET", "/api/v2/hosts/2001:db8:0:0:1:0:0:1/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(onHost.result).toMatchObject({ ip: "2001:db8::1:0:0:1", tags: [{ id: tag.id }] });

    expect((await call(a, "DELETE", `/api/v2/hosts/2001:db8::1:0:0:1/tags/${tag.id}`)).status).toBe(204);
    expect(await storedDocuments("annotation_tagged", "tag_id", tag.id)).toEqual([]);
  });

  it("an IPv4-mapped address is ::ffff:a.b.c.d, written in hex or dotted", async () => {
    const tag = await createTag(a);
    expect((await call(a, "PUT", `/api/v2/hosts/::FFFF:C000:0201/tags/${tag.id}`)).status).toBe(204);
    const hosts = await ok(
      await call(a, "GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts.map((h) => h.ip)).toEqual(["::ffff:192.0.2.1"]);
    const onHost = await ok(
      await call(a, "GET", "/api/v2/hosts/0:0:0:0:0:ffff:192.0.2.1/tags"),
      v2Envelope(hostTagsResultSchema),
    );
    expect(onHost.result).toMatchObject({ ip: "::ffff:192.0.2.1", tags: [{ id: tag.id }] });
  });

  it("an IPv4 address and a fingerprint keep their one spelling", async () => {
    const added = await ok(
      await call(a, "POST", "/api/v2/hosts/192.0.2.77/comments", { contents: "v4" }),
      comment,
    );
    expect(added.result.ip).toBe("192.0.2.77");
    await expectError(await call(a, "GET", "/api/v2/hosts/192.0.2.077/comments"), 422, /Invalid IP address/);
    const tag = await createTag(a);
    expect((await call(a, "PUT", `/api/v2/certificates/${FP.toUpperCase()}/tags/${tag.id}`)).status).toBe(
      204,
    );
    const certs = await ok(
      await call(a, "GET", `/api/v2/tags/${tag.id}/certificates`),
      v2Envelope(tagCertificatesResultSchema),
    );
    expect(certs.result.certs.map((c) => c.fingerprint)).toEqual([FP]);
  });
});
