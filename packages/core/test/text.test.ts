import { describe, expect, it } from "vitest";
import {
  ANNOTATION_CAPS,
  annotatedDocumentId,
  annotationCapError,
  ApiError,
  fullestCap,
  isWellFormedText,
  loneSurrogateAt,
  nameKey,
  pathText,
  requireUtf8Query,
  requireWellFormedJson,
} from "../src/index";

describe("isWellFormedText", () => {
  it("refuses a lone high or low surrogate anywhere, and a pair in the wrong order", () => {
    for (const text of ["\ud800", "x\ud801", "x\udfff", "\udc00x", "a\ud83d", "\ude00\ud83d"]) {
      expect(isWellFormedText(text), JSON.stringify(text)).toBe(false);
    }
  });
  it("accepts pairs (astral characters), replacement characters and plain text", () => {
    for (const text of ["", "x", "\ud83d\ude00", "fox \ud83e\udd8a!", "\ufffd", "e\u0301", "\u0000"]) {
      expect(isWellFormedText(text), JSON.stringify(text)).toBe(true);
    }
  });
});

describe("loneSurrogateAt", () => {
  it("names where a parsed JSON value holds one: a field, an array item, a key, the value", () => {
    expect(loneSurrogateAt({ name: "ok", metadata: { color: "#\ud800" } })).toBe("metadata.color");
    expect(loneSurrogateAt({ fingerprints: ["a", "b", "\udc00"] })).toBe("fingerprints[2]");
    expect(loneSurrogateAt({ metadata: { ["k\ud800"]: 1 } })).toBe("metadata.(a key)");
    expect(loneSurrogateAt("\ud800")).toBe("(body)");
    expect(loneSurrogateAt(JSON.parse('{"contents":"x\\ud800"}'))).toBe("contents");
  });
  it("is null for well-formed values of every JSON type", () => {
    expect(loneSurrogateAt({ a: [1, true, null, "\ud83d\ude00", { b: "c" }] })).toBeNull();
    expect(loneSurrogateAt(null)).toBeNull();
  });
  it("requireWellFormedJson throws the 400 that names the place", () => {
    expect(() => requireWellFormedJson({ name: "x\ud800" })).toThrow(/^name: holds a lone surrogate/);
    try {
      requireWellFormedJson({ name: "x\ud800" });
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status("v2")).toBe(400);
    }
    expect(() => requireWellFormedJson({ name: "x" })).not.toThrow();
  });
});

describe("pathText", () => {
  it("refuses a path parameter holding a lone surrogate, decoded or still percent-escaped", () => {
    for (const value of ["tag_\ud800", "tag_%ED%A0%80", "%ed%bf%bf", "x%ED%B0%80y"]) {
      expect(() => pathText("id", value), value).toThrow(/^id: holds a lone surrogate/);
    }
  });
  it("passes other values as they are, escapes of real characters too", () => {
    for (const value of ["tag_0123", "%E2%82%AC", "%ZZ", "", "\ud83d\ude00"]) {
      expect(pathText("id", value)).toBe(value);
    }
  });
  it("comes before the document id's own check: a 400, not the 422 of a malformed IP", () => {
    expect(() => annotatedDocumentId("hosts", "1.2.3.4%ED%A0%80")).toThrow(/^ip: holds a lone surrogate/);
    expect(() => annotatedDocumentId("hosts", "1.2.3")).toThrow(/Invalid IP address/);
  });
});

describe("requireUtf8Query", () => {
  it("refuses a query whose escapes are not UTF-8: a lone surrogate's, a stray byte", () => {
    expect(() => requireUtf8Query("http://x/a?tenant_id=%ED%A0%80x")).toThrow(
      /"tenant_id" is not valid UTF-8/,
    );
    expect(() => requireUtf8Query("http://x/a?limit=1&n%FF=2")).toThrow(/"n%FF" is not valid UTF-8/);
    // In `q` it is an unparseable query (the spec's invalid-query answer).
    expect(() => requireUtf8Query("http://x/a?q=%ED%A0%80")).toThrow(
      expect.objectContaining({ kind: "invalid_query" }),
    );
    // Which says why, as a query the parser refuses does.
    const refusal = (() => {
      try {
        requireUtf8Query("http://x/a?q=%zz");
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).extra?.detail).toMatch(/percent-escapes .* UTF-8/);
  });
  it("passes UTF-8 escapes, plain text and no query at all", () => {
    for (const url of [
      "http://x/a",
      "http://x/a?",
      "http://x/a?q=caf%C3%A9+x&fields=a",
      "http://x/a?x=%F0%9F%98%80",
    ]) {
      expect(() => requireUtf8Query(url), url).not.toThrow();
    }
  });
});

describe("nameKey", () => {
  it("makes a composed and a decomposed accent, in any case, one key", () => {
    expect(nameKey("Caf\u00e9")).toBe(nameKey("CAFE\u0301"));
    expect(nameKey("\u00c5ngstr\u00f6m")).toBe(nameKey("A\u030angstro\u0308m"));
    expect(nameKey("Honeypot")).toBe("honeypot");
  });
  it("keeps different letters apart", () => {
    expect(nameKey("cafe")).not.toBe(nameKey("caf\u00e9"));
  });
  it("gives the same key for a name and its own key (lowercasing İ stays normalised)", () => {
    for (const name of ["\u0130stanbul", "\u1E9E", "Ω", "ﬀ"])
      expect(nameKey(nameKey(name))).toBe(nameKey(name));
  });
});

describe("the annotation caps", () => {
  it("fullestCap names the cap nearest its maximum", () => {
    expect(fullestCap({ document_comments: 100, comments: 40 })).toBe("document_comments");
    expect(fullestCap({ document_comments: 3, comments: ANNOTATION_CAPS.comments })).toBe("comments");
    expect(fullestCap({ tag_documents: 999, document_tags: 50, tag_links: 10 })).toBe("document_tags");
  });
  it("annotationCapError is a 409 naming the cap and its number, for the team or the account", () => {
    const team = annotationCapError("tags", "team");
    expect(team.render("v2")).toEqual({
      status: 409,
      body: {
        code: 409,
        status: "Conflict",
        error: "The team already keeps 500 tags, the most it may; delete one to create another.",
        limit: 500,
      },
    });
    expect(annotationCapError("comments", "account").clientMessage).toMatch(/account already keeps 10,000/);
  });
});
