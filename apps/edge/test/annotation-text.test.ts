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
 * keep) is a 400 in every string the routes read, body or path, and nothing is stored; so is a
 * control character in a tag name or a comment (but a comment's tabs and line breaks); lengths
 * count characters, not UTF-16 units; names are compared in NFC ignoring case, so a composed and
 * a decomposed accent are one name; what is stored is what was sent.
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

describe("lengths are counted in characters (code points), not UTF-16 units", () => {
  const emoji = "\ud83d\ude00"; // one character, two UTF-16 units
  const contentsOf = async (host: string) =>
    (
      await ok(await call("GET", `/api/v2/hosts/${host}/comments`), v2Envelope(hostCommentsResultSchema))
    ).result.comments.map((c) => c.contents);

  it("a comment of 2,049 emoji (4,098 units) is stored as sent; 4,096 emoji are the most", async () => {
    for (const [host, n] of [
      ["192.0.2.40", 2049],
      ["192.0.2.41", 4096],
    ] as const) {
      const added = await ok(
        await call("POST", `/api/v2/hosts/${host}/comments`, { contents: emoji.repeat(n) }),
        comment,
      );
      expect(added.result.contents).toBe(emoji.repeat(n));
      expect(await contentsOf(host)).toEqual([emoji.repeat(n)]);
    }
  });

  it("a comment of 4,097 emoji is a 400, added or edited, and stores nothing", async () => {
    const mine = await ok(
      await call("POST", "/api/v2/hosts/192.0.2.42/comments", { contents: "short" }),
      comment,
    );
    const before = await annotationTables();
    const tooLong = { contents: emoji.repeat(4097) };
    await expectError(
      await call("POST", "/api/v2/hosts/192.0.2.42/comments", tooLong),
      400,
      /at most 4096 characters/,
    );
    await expectError(
      await call("PUT", `/api/v2/hosts/192.0.2.42/comments/${mine.result.id}`, tooLong),
      400,
      /at most 4096 characters/,
    );
    expect(await annotationTables()).toEqual(before);
    // An edit to 2,049 emoji is within the limit.
    const edited = await ok(
      await call("PUT", `/api/v2/hosts/192.0.2.42/comments/${mine.result.id}`, {
        contents: emoji.repeat(2049),
      }),
      comment,
    );
    expect(edited.result.contents).toBe(emoji.repeat(2049));
  });

  it("a tag name of 64 emoji is stored; 65 is a 400 that stores nothing", async () => {
    const name = emoji.repeat(64);
    expect((await createTag(name)).name).toBe(name);
    const before = await annotationTables();
    await expectError(
      await call("POST", "/api/v2/tags", { name: emoji.repeat(65) }),
      400,
      /at most 64 characters/,
    );
    expect(await annotationTables()).toEqual(before);
  });
});

describe("a control character is a 400 in the v2 shape and stores nothing", async () => {
  const tag = await createTag();
  const mine = await ok(
    await call("POST", "/api/v2/hosts/192.0.2.32/comments", { contents: "kept" }),
    comment,
  );
  // C0 (NUL, BEL, tab, LF inside a name, ESC, US), DEL, C1 (U+0080, NEL, U+009F).
  const inNames: Array<[string, string]> = [
    ["hunt-\u0000", "U+0000"],
    ["ding\u0007", "U+0007"],
    ["two\twords", "U+0009"],
    ["two\nlines", "U+000A"],
    ["\u001b[31mred", "U+001B"],
    ["a\u001fb", "U+001F"],
    ["del\u007f", "U+007F"],
    ["c1\u0080", "U+0080"],
    ["next\u0085line", "U+0085"],
    ["c1\u009f", "U+009F"],
  ];
  for (const [name, code] of inNames) {
    it(`in a tag name, created or renamed: ${JSON.stringify(name)} names ${code}`, async () => {
      const before = await annotationTables();
      const message = new RegExp(
        `^name: name must not hold control characters \\(${code.replace("+", "\\+")}\\)$`,
      );
      await expectError(await call("POST", "/api/v2/tags", { name }), 400, message);
      await expectError(await call("PUT", `/api/v2/tags/${tag.id}`, { name }), 400, message);
      expect(await annotationTables()).toEqual(before);
    });
  }

  const inComments: Array<[string, string]> = [
    ["seen \u0000 here", "U+0000"],
    ["\u001b]0;owned\u0007", "U+001B"],
    ["vertical\u000btab", "U+000B"],
    ["form\u000cfeed", "U+000C"],
    ["del\u007f", "U+007F"],
    ["next\u0085line", "U+0085"],
  ];
  for (const [contents, code] of inComments) {
    it(`in a comment, added or edited: ${JSON.stringify(contents)} names ${code}`, async () => {
      const before = await annotationTables();
      const message = new RegExp(`other than tab and line breaks \\(${code.replace("+", "\\+")}\\)$`);
      await expectError(await call("POST", "/api/v2/hosts/192.0.2.32/comments", { contents }), 400, message);
      await expectError(
        await call("PUT", `/api/v2/hosts/192.0.2.32/comments/${mine.result.id}`, { contents }),
        400,
        message,
      );
      expect(await annotationTables()).toEqual(before);
    });
  }

  it("but a comment keeps its tabs and line breaks (LF, CR LF), stored as sent", async () => {
    const contents = "ports:\r\n\t22\tssh\n\t80\thttp\r";
    const added = await ok(await call("POST", "/api/v2/hosts/192.0.2.33/comments", { contents }), comment);
    expect(added.result.contents).toBe(contents);
    const listed = await ok(
      await call("GET", "/api/v2/hosts/192.0.2.33/comments"),
      v2Envelope(hostCommentsResultSchema),
    );
    expect(listed.result.comments.map((c) => c.contents)).toEqual([contents]);
  });
});
