import {
  ANNOTATION_COMMENTS_MAX,
  ANNOTATION_TAG_LINKS_MAX,
  ANNOTATION_TAGS_MAX,
  DOCUMENT_COMMENTS_MAX,
  DOCUMENT_TAGS_MAX,
  hostCommentSchema,
  hostCommentsResultSchema,
  hostTagsResultSchema,
  TAG_DOCUMENTS_MAX,
  tagHostsResultSchema,
  tagsListResultSchema,
  v2Envelope,
  v2ErrorSchema,
  type TenantWithSecret,
} from "@scangate/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  annotationTables,
  callAs,
  countOf,
  createTag as createTagAs,
  expectError,
  ok,
  removeSeeded,
  seedComments,
  seedTagOnHosts,
  seedTags,
  seedTagsOnDocument,
  unique,
} from "./support/annotations";
import { createTenant } from "./support/requests";
import { testEdge } from "./support/test-edge";

/**
 * The team's tags and comments are bounded (core's limits): per team, per tag and per document.
 * A write past a cap is a 409 in the v2 shape that names the cap, and stores nothing; the lists,
 * which have no paging, never hold more than their cap. Tests seed rows straight into D1 to
 * bring the team near a cap, and remove them after.
 */

const edge = testEdge();
const tenant: TenantWithSecret = await createTenant({ allowance: 10 }, edge.fetch);
const call = (method: string, path: string, body?: unknown) => callAs(edge.fetch, tenant, method, path, body);
const createTag = (name?: string) => createTagAs(edge.fetch, tenant, name);
const comment = v2Envelope(hostCommentSchema);

afterEach(removeSeeded);

describe("caps on the team's tags", () => {
  it(`the team keeps at most ${ANNOTATION_TAGS_MAX} tags; one more is a 409 and stores nothing`, async () => {
    await seedTags("full", ANNOTATION_TAGS_MAX - 1 - (await countOf("annotation_tags")));
    const last = await createTag();
    expect(await countOf("annotation_tags")).toBe(ANNOTATION_TAGS_MAX);

    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/tags", { name: unique("one-more") }),
      409,
      /team already keeps 500 tags/,
    );
    expect(await annotationTables()).toEqual(before);
    // The list, which has no paging, holds them all and no more.
    const listed = await ok(await call("GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(listed.result.tags).toHaveLength(ANNOTATION_TAGS_MAX);

    // Deleting one makes room again.
    expect((await call("DELETE", `/api/v2/tags/${last.id}`)).status).toBe(204);
    await createTag();
  });

  it("concurrent creates at the cap store exactly as many as fit", async () => {
    await seedTags("race", ANNOTATION_TAGS_MAX - 2 - (await countOf("annotation_tags")));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", "/api/v2/tags", { name: unique("racer") })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 409, 409, 409, 409, 409, 409]);
    expect(await countOf("annotation_tags")).toBe(ANNOTATION_TAGS_MAX);
  });

  it(`a tag goes on at most ${TAG_DOCUMENTS_MAX} documents; the tag's list holds no more`, async () => {
    const tag = await createTag();
    await seedTagOnHosts(tag.id, TAG_DOCUMENTS_MAX);
    const before = await annotationTables();
    await expectError(
      await call("PUT", `/api/v2/hosts/192.0.2.200/tags/${tag.id}`),
      409,
      /tag is already on 1,000 documents/,
    );
    expect(await annotationTables()).toEqual(before);
    // Putting it again where it is already changes nothing and is no error.
    expect((await call("PUT", `/api/v2/hosts/10.0.0.1/tags/${tag.id}`)).status).toBe(204);
    const hosts = await ok(
      await call("GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts).toHaveLength(TAG_DOCUMENTS_MAX);
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });

  it(`a document carries at most ${DOCUMENT_TAGS_MAX} tags`, async () => {
    const host = "192.0.2.201";
    await seedTags("doc", DOCUMENT_TAGS_MAX);
    await seedTagsOnDocument("doc", DOCUMENT_TAGS_MAX, host);
    const tag = await createTag();
    const before = await annotationTables();
    await expectError(
      await call("PUT", `/api/v2/hosts/${host}/tags/${tag.id}`),
      409,
      /document already carries 50 tags/,
    );
    expect(await annotationTables()).toEqual(before);
    const onHost = await ok(
      await call("GET", `/api/v2/hosts/${host}/tags`),
      v2Envelope(hostTagsResultSchema),
    );
    expect(onHost.result.tags).toHaveLength(DOCUMENT_TAGS_MAX);
    // Elsewhere the tag goes on as ever.
    expect((await call("PUT", `/api/v2/hosts/192.0.2.202/tags/${tag.id}`)).status).toBe(204);
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });

  it(`the team's tags are on at most ${ANNOTATION_TAG_LINKS_MAX} documents in all`, async () => {
    const tags = ANNOTATION_TAG_LINKS_MAX / TAG_DOCUMENTS_MAX;
    await seedTags("links", tags);
    for (let i = 1; i <= tags; i++) await seedTagOnHosts(`seed_tag_links_${i}`, TAG_DOCUMENTS_MAX);
    const tag = await createTag();
    const before = await annotationTables();
    await expectError(
      await call("PUT", `/api/v2/hosts/192.0.2.203/tags/${tag.id}`),
      409,
      /team's tags are already on 10,000 documents in all/,
    );
    expect(await annotationTables()).toEqual(before);
    // Taking a tag off a document makes room.
    expect((await call("DELETE", `/api/v2/hosts/10.0.0.1/tags/seed_tag_links_1`)).status).toBe(204);
    expect((await call("PUT", `/api/v2/hosts/192.0.2.203/tags/${tag.id}`)).status).toBe(204);
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });
});

describe("caps on the team's comments", () => {
  it(`a document has at most ${DOCUMENT_COMMENTS_MAX} comments; its list holds no more`, async () => {
    const host = "192.0.2.210";
    await seedComments(DOCUMENT_COMMENTS_MAX - 1, host);
    await ok(await call("POST", `/api/v2/hosts/${host}/comments`, { contents: "the last one" }), comment);
    const before = await annotationTables();
    const refused = await call("POST", `/api/v2/hosts/${host}/comments`, { contents: "one more" });
    const text = await refused.text();
    expect(refused.status, text).toBe(409);
    const body = v2ErrorSchema.parse(JSON.parse(text));
    expect(body).toMatchObject({ code: 409, status: "Conflict", limit: DOCUMENT_COMMENTS_MAX });
    expect(body.error).toMatch(/document already has 100 comments/);
    expect(await annotationTables()).toEqual(before);
    // Another document takes comments as ever; deleting one here makes room here.
    await ok(await call("POST", "/api/v2/hosts/192.0.2.211/comments", { contents: "elsewhere" }), comment);
    const listed = await ok(
      await call("GET", `/api/v2/hosts/${host}/comments`),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.comments).toHaveLength(DOCUMENT_COMMENTS_MAX);
    const last = listed.result.comments.at(-1);
    expect(last?.contents).toBe("the last one");
    expect((await call("DELETE", `/api/v2/hosts/${host}/comments/${last?.id ?? ""}`)).status).toBe(204);
    await ok(await call("POST", `/api/v2/hosts/${host}/comments`, { contents: "room again" }), comment);
  });

  it(`the team keeps at most ${ANNOTATION_COMMENTS_MAX} comments`, async () => {
    await seedComments(ANNOTATION_COMMENTS_MAX - (await countOf("annotation_comments")), null);
    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/hosts/192.0.2.212/comments", { contents: "one more" }),
      409,
      /team already keeps 10,000 comments/,
    );
    expect(await annotationTables()).toEqual(before);
  });

  it("a document's list stops at the cap even over comments stored before the caps", async () => {
    // The red team's host: 1,000 comments of 4 KB each, listed to every reader.
    const host = "192.0.2.213";
    await seedComments(1000, host, "x".repeat(4096));
    const res = await call("GET", `/api/v2/hosts/${host}/comments`);
    const listed = await ok(res.clone(), v2Envelope(hostCommentsResultSchema));
    expect(listed.result.comments).toHaveLength(DOCUMENT_COMMENTS_MAX);
    expect((await res.arrayBuffer()).byteLength).toBeLessThan(DOCUMENT_COMMENTS_MAX * 4400);
  });

  it("a delete answers 204 with no body, not the comments left", async () => {
    const host = "192.0.2.214";
    await seedComments(DOCUMENT_COMMENTS_MAX - 1, host, "y".repeat(4096));
    const mine = await ok(
      await call("POST", `/api/v2/hosts/${host}/comments`, { contents: "mine" }),
      comment,
    );
    const res = await call("DELETE", `/api/v2/hosts/${host}/comments/${mine.result.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await expectError(await call("GET", `/api/v2/hosts/${host}/comments/${mine.result.id}`), 404);
  });
});
