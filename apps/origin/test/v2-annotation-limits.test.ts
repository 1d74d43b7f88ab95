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
  tagSchema,
  tagsListResultSchema,
  v2Envelope,
} from "@scangate/core";
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import {
  annotationTables,
  expectError,
  ok,
  ownedCount,
  removeSeeded,
  seedComments,
  seedTagOnHosts,
  seedTags,
  seedTagsOnDocument,
  unique,
} from "./support/annotations";
import { basicAuth, call, configuredAccount } from "./support/requests";

/**
 * Each account's tags and comments are bounded (core's limits): per account, per tag and per
 * document. A write past a cap is a 409 in the v2 shape naming the cap, and stores nothing; the
 * lists, which have no paging, never hold more than their cap. Rows are seeded straight into D1
 * for the configured account to bring it near a cap, and removed after each test.
 */

const owner = configuredAccount().api_id;
const comment = v2Envelope(hostCommentSchema);

async function createTag(name = unique("tag")) {
  return (await ok(await call("POST", "/api/v2/tags", { body: { name } }), v2Envelope(tagSchema))).result;
}

afterEach(removeSeeded);

describe("caps on an account's tags", () => {
  it(`an account keeps at most ${ANNOTATION_TAGS_MAX} tags; one more is a 409 and stores nothing`, async () => {
    await seedTags(owner, "full", ANNOTATION_TAGS_MAX - 1 - (await ownedCount("annotation_tags", owner)));
    const last = await createTag();
    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/tags", { body: { name: unique("one-more") } }),
      409,
      /account already keeps 500 tags/,
    );
    expect(await annotationTables()).toEqual(before);
    const listed = await ok(await call("GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(listed.result.tags).toHaveLength(ANNOTATION_TAGS_MAX);
    expect((await call("DELETE", `/api/v2/tags/${last.id}`)).status).toBe(204);
    await createTag();
  });

  it("one account at its cap leaves another account's room alone", async () => {
    await seedTags(owner, "mine", ANNOTATION_TAGS_MAX - (await ownedCount("annotation_tags", owner)));
    await expectError(await call("POST", "/api/v2/tags", { body: { name: unique("t") } }), 409);
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
    const theirs = await createApp().fetch(
      new Request("http://origin.test/api/v2/tags", {
        method: "POST",
        headers: {
          Authorization: basicAuth(other.api_id, other.api_secret),
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ name: unique("theirs") }),
      }),
      twoAccounts,
      createExecutionContext(),
    );
    expect(theirs.status).toBe(200);
    await env.DB.prepare("delete from annotation_tags where owner = ?").bind(other.api_id).run();
  });

  it("concurrent creates at the cap store exactly as many as fit", async () => {
    await seedTags(owner, "race", ANNOTATION_TAGS_MAX - 2 - (await ownedCount("annotation_tags", owner)));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call("POST", "/api/v2/tags", { body: { name: unique("racer") } })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 409, 409, 409, 409]);
    expect(await ownedCount("annotation_tags", owner)).toBe(ANNOTATION_TAGS_MAX);
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
    expect((await call("PUT", `/api/v2/hosts/10.0.0.1/tags/${tag.id}`)).status).toBe(204);
    const hosts = await ok(
      await call("GET", `/api/v2/tags/${tag.id}/hosts`),
      v2Envelope(tagHostsResultSchema),
    );
    expect(hosts.result.hosts).toHaveLength(TAG_DOCUMENTS_MAX);
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });

  it(`a document carries at most ${DOCUMENT_TAGS_MAX} of the account's tags`, async () => {
    const host = "192.0.2.201";
    await seedTags(owner, "doc", DOCUMENT_TAGS_MAX);
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
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });

  it(`an account's tags are on at most ${ANNOTATION_TAG_LINKS_MAX} documents in all`, async () => {
    const tags = ANNOTATION_TAG_LINKS_MAX / TAG_DOCUMENTS_MAX;
    await seedTags(owner, "links", tags);
    for (let i = 1; i <= tags; i++) await seedTagOnHosts(`seed_tag_links_${i}`, TAG_DOCUMENTS_MAX);
    const tag = await createTag();
    const before = await annotationTables();
    await expectError(
      await call("PUT", `/api/v2/hosts/192.0.2.203/tags/${tag.id}`),
      409,
      /account's tags are already on 10,000 documents in all/,
    );
    expect(await annotationTables()).toEqual(before);
    expect((await call("DELETE", "/api/v2/hosts/10.0.0.1/tags/seed_tag_links_1")).status).toBe(204);
    expect((await call("PUT", `/api/v2/hosts/192.0.2.203/tags/${tag.id}`)).status).toBe(204);
    await call("DELETE", `/api/v2/tags/${tag.id}`);
  });
});

describe("caps on an account's comments", () => {
  it(`a document has at most ${DOCUMENT_COMMENTS_MAX} comments; its list holds no more`, async () => {
    const host = "192.0.2.210";
    await seedComments(owner, DOCUMENT_COMMENTS_MAX - 1, host);
    await ok(
      await call("POST", `/api/v2/hosts/${host}/comments`, { body: { contents: "the last one" } }),
      comment,
    );
    const before = await annotationTables();
    await expectError(
      await call("POST", `/api/v2/hosts/${host}/comments`, { body: { contents: "one more" } }),
      409,
      /document already has 100 comments/,
    );
    expect(await annotationTables()).toEqual(before);
    const listed = await ok(
      await call("GET", `/api/v2/hosts/${host}/comments`),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.comments).toHaveLength(DOCUMENT_COMMENTS_MAX);
    const last = listed.result.comments.at(-1);
    expect(last?.contents).toBe("the last one");
    expect((await call("DELETE", `/api/v2/hosts/${host}/comments/${last?.id ?? ""}`)).status).toBe(204);
    await ok(
      await call("POST", `/api/v2/hosts/${host}/comments`, { body: { contents: "room again" } }),
      comment,
    );
  });

  it(`an account keeps at most ${ANNOTATION_COMMENTS_MAX} comments`, async () => {
    await seedComments(
      owner,
      ANNOTATION_COMMENTS_MAX - (await ownedCount("annotation_comments", owner)),
      null,
    );
    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/hosts/192.0.2.212/comments", { body: { contents: "one more" } }),
      409,
      /account already keeps 10,000 comments/,
    );
    expect(await annotationTables()).toEqual(before);
  });

  it("a document's list stops at the cap even over comments stored before the caps", async () => {
    const host = "192.0.2.213";
    await seedComments(owner, 1000, host, "x".repeat(4096));
    const res = await call("GET", `/api/v2/hosts/${host}/comments`);
    const listed = await ok(res.clone(), v2Envelope(hostCommentsResultSchema));
    expect(listed.result.comments).toHaveLength(DOCUMENT_COMMENTS_MAX);
    expect((await res.arrayBuffer()).byteLength).toBeLessThan(DOCUMENT_COMMENTS_MAX * 4400);
  });

  it("a delete answers 204 with no body, not the comments left", async () => {
    const host = "192.0.2.214";
    await seedComments(owner, DOCUMENT_COMMENTS_MAX - 1, host, "y".repeat(4096));
    const mine = await ok(
      await call("POST", `/api/v2/hosts/${host}/comments`, { body: { contents: "mine" } }),
      comment,
    );
    const res = await call("DELETE", `/api/v2/hosts/${host}/comments/${mine.result.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await expectError(await call("GET", `/api/v2/hosts/${host}/comments/${mine.result.id}`), 404);
  });
});
