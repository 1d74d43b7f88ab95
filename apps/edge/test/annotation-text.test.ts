import {
  hostCommentSchema,
  hostCommentsResultSchema,
  tagsListResultSchema,
  v2Envelope,
  type TenantWithSecret,
} from "@scangate/core";
import { describe, expect, it } from "vitest";
import {
  annotationTables,
  callAs,
  createTag as createTagAs,
  expectError,
  FP,
  ok,
  tagEnvelope,
  unique,
} from "./support/annotations";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

/**
 * Text identity of the team's tags and comments: a lone surrogate (which no UTF-8 store can
 * keep) is a 400 in every string the routes read, body or path, and nothing is stored; names are
 * compared in NFC ignoring case, so a composed and a decomposed accent are one name; what is
 * stored is what was sent.
 */

const edge = testEdge();
const tenant: TenantWithSecret = await createTenant({ allowance: 10 }, edge.fetch);
const call = (method: string, path: string, body?: unknown) => callAs(edge.fetch, tenant, method, path, body);
const createTag = (name?: string) => createTagAs(edge.fetch, tenant, name);
const comment = v2Envelope(hostCommentSchema);
const LONE = /lone surrogate/;

/** A raw request target, sent as written (`%ED%A0%80` is how a lone surrogate travels in a URL). */
const rawCall = (method: string, target: string) =>
  edge.fetch(buildRequest(method, target, { auth: tenantAuth(tenant) }));

describe("a lone surrogate is a 400 and stores nothing", async () => {
  const tag = await createTag();
  const mine = await ok(
    await call("POST", "/api/v2/hosts/192.0.2.30/comments", { contents: "kept" }),
    comment,
  );

  it("in tag names that differ only in it (x\\ud800, x\\ud801, x\\udfff): none is stored", async () => {
    const before = await annotationTables();
    for (const name of ["x\ud800", "x\ud801", "x\udfff", "\udc00x", "a\ud83d"]) {
      await expectError(await call("POST", "/api/v2/tags", { name }), 400, LONE);
    }
    await expectError(await call("PUT", `/api/v2/tags/${tag.id}`, { name: "y\ud800" }), 400, LONE);
    expect(await annotationTables()).toEqual(before);
    const listed = await ok(await call("GET", "/api/v2/tags"), v2Envelope(tagsListResultSchema));
    expect(listed.result.tags.filter((t) => t.name.includes("\ufffd"))).toEqual([]);
  });

  it("in a colour, and anywhere else in the body", async () => {
    const before = await annotationTables();
    const refused: unknown[] = [
      { name: unique("c"), metadata: { color: "#ff000\ud800" } },
      { name: unique("c"), metadata: { color: "#ff0000", note: "\udfff" } },
      { name: unique("c"), ["extra\ud800"]: 1 },
    ];
    for (const body of refused) {
      await expectError(await call("POST", "/api/v2/tags", body), 400, LONE);
    }
    expect(await annotationTables()).toEqual(before);
  });

  it("in comment text, added or edited: never stored with a replacement character", async () => {
    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/hosts/192.0.2.30/comments", { contents: "seen \ud800 scanning" }),
      400,
      LONE,
    );
    await expectError(
      await call("PUT", `/api/v2/hosts/192.0.2.30/comments/${mine.result.id}`, { contents: "\udc00" }),
      400,
      LONE,
    );
    expect(await annotationTables()).toEqual(before);
    const listed = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.30/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.comments.map((c) => c.contents)).toEqual(["kept"]);
  });

  const escaped = "%ED%A0%80"; // U+D800 as UTF-8-style bytes: not UTF-8, left undecoded
  const paths: Array<[string, string, () => string]> = [
    ["a tag id", "GET", () => `/api/v2/tags/${tag.id}${escaped}`],
    ["a tag id to delete", "DELETE", () => `/api/v2/tags/tag_${escaped}`],
    ["a tag id's hosts", "GET", () => `/api/v2/tags/${escaped}/hosts`],
    ["a tag id put on a host", "PUT", () => `/api/v2/hosts/192.0.2.30/tags/${escaped}`],
    ["a tag id taken off a host", "DELETE", () => `/api/v2/hosts/192.0.2.30/tags/x${escaped}`],
    ["a host's IP", "GET", () => `/api/v2/hosts/192.0.2.30${escaped}/tags`],
    ["a certificate's fingerprint", "GET", () => `/api/v2/certificates/${FP}${escaped}/comments`],
    ["a comment id", "GET", () => `/api/v2/hosts/192.0.2.30/comments/${mine.result.id}%ED%BF%BF`],
    ["a comment id to delete", "DELETE", () => `/api/v2/hosts/192.0.2.30/comments/${escaped}`],
  ];
  for (const [what, method, path] of paths) {
    it(`in ${what} in the path`, async () => {
      const before = await annotationTables();
      await expectError(await rawCall(method, path()), 400, LONE);
      expect(await annotationTables()).toEqual(before);
    });
  }

  it("but a well-formed pair (an emoji) is text like any other, stored as sent", async () => {
    const name = unique("fox \ud83e\udd8a");
    const created = await createTag(name);
    expect(created.name).toBe(name);
    const added = await ok(
      await call("POST", "/api/v2/hosts/192.0.2.31/comments", { contents: "\ud83d\ude00 ok" }),
      comment,
    );
    expect(added.result.contents).toBe("\ud83d\ude00 ok");
  });
});

describe("names are compared in NFC, ignoring case", () => {
  it("a composed and a decomposed accent are one name: the second is a 409", async () => {
    const word = unique("caf");
    const composed = `${word}\u00e9`;
    const decomposed = `${word}e\u0301`;
    const first = await createTag(composed);
    expect(first.name).toBe(composed);
    const other = await createTag();
    const before = await annotationTables();
    await expectError(await call("POST", "/api/v2/tags", { name: decomposed }), 409, /already exists/);
    await expectError(
      await call("POST", "/api/v2/tags", { name: decomposed.toUpperCase() }),
      409,
      /already exists/,
    );
    await expectError(
      await call("PUT", `/api/v2/tags/${other.id}`, { name: decomposed }),
      409,
      /already exists/,
    );
    expect(await annotationTables()).toEqual(before);
  });

  it("the stored name is the one sent, decomposed or not", async () => {
    const decomposed = unique("re\u0301sume\u0301");
    const created = await createTag(decomposed);
    expect(created.name).toBe(decomposed);
    const read = await ok(await call("GET", `/api/v2/tags/${created.id}`), tagEnvelope);
    expect(read.result.name).toBe(decomposed);
    // Renaming it to its own composed spelling is no clash with itself.
    const composed = decomposed.normalize("NFC");
    const renamed = await ok(
      await call("PUT", `/api/v2/tags/${created.id}`, { name: composed }),
      tagEnvelope,
    );
    expect(renamed.result.name).toBe(composed);
  });
});
