import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalPath, canonicalRequest, lenientPath, refusedTargetResponse } from "../../src/http";

/** A spelling of `path` a client may send: some characters percent-encoded, in either case. */
function encodedSpelling(path: string, picks: readonly boolean[], upper: readonly boolean[]): string {
  let out = "";
  let i = 0;
  for (const char of path) {
    const at = i++;
    if (char === "/" || !picks[at % picks.length]) {
      out += char;
      continue;
    }
    const hex = [...new TextEncoder().encode(char)]
      .map((b) => `%${b.toString(16).padStart(2, "0")}`)
      .join("");
    out += upper[at % upper.length] ? hex.toUpperCase() : hex;
  }
  return out;
}

const PATHS = [
  "/v3/global/asset/host",
  "/v3/global/asset/certificate/raw",
  "/v3/accounts/organizations/org-1/credits",
  "/api/v1/view/certificates/ab12",
  "/api/v2/hosts/2001:db8::1",
  "/v3/global/asset/webproperty/example.com:443",
  "/api/v2/tags/tag_1/hosts",
];

describe("canonicalPath: one spelling of every path", () => {
  it.each([
    ["/v3/global/asset/%68ost", "/v3/global/asset/host"],
    ["/v3/%61ccounts/organizations/x/credits", "/v3/accounts/organizations/x/credits"],
    ["/api//v2/hosts/1.1.1.1/", "/api/v2/hosts/1.1.1.1"],
    ["/api/v2/hosts/2001%3Adb8%3A%3A1", "/api/v2/hosts/2001:db8::1"],
    ["/api/v1/./view/x/../certificates/ab", "/api/v1/view/certificates/ab"],
    ["/a%20b", "/a%20b"],
    ["/a b", "/a%20b"],
    ["/a%3Fb%23c%25d", "/a%3Fb%23c%25d"],
    ["/%C3%A9", "/%C3%A9"],
    ["/%c3%a9", "/%C3%A9"],
    ["/", "/"],
    ["//", "/"],
  ])("%s is %s", (sent, canonical) => {
    expect(canonicalPath(sent)).toEqual({ ok: true, path: canonical });
  });

  it.each([
    ["/api/v2/hosts/a%2Fb", "encoded '/'"],
    ["/api/v2/hosts/a%2fb", "encoded '/'"],
    ["/api/v2/hosts/a%5Cb", "encoded '/'"],
    ["/api/v2/hosts/%zz", "malformed"],
    ["/api/v2/hosts/%C3", "not UTF-8 text"],
    ["/api/v2/tags/%ED%A0%80", "a lone surrogate"],
    ["/api/v2/hosts/a%00b", "control character"],
    ["/api/v2/hosts/a%0Ab", "control character"],
    ["/..", "above its root"],
    ["/api/%2e%2e/%2e%2e/x", "above its root"],
  ])("refuses %s (%s)", (sent, reason) => {
    const result = canonicalPath(sent);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.problem).toContain(reason);
  });

  it("gives every encoded spelling of a path the plain path's form", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PATHS),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        (path, picks, upper, slashes) => {
          const spelled = encodedSpelling(path, picks, upper).replaceAll("/", "/".repeat(slashes + 1));
          expect(canonicalPath(spelled)).toEqual(canonicalPath(path));
        },
      ),
    );
  });

  it("keeps a path of plain segments as it is, and resolves its dot segments", () => {
    // Segments of safe characters, dots among them, so ".", ".." and "..." all come up.
    const segment = fc.stringMatching(/^[a-z0-9.~:@-]{0,4}$/);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const resolved: string[] = [];
        let climbs = false;
        for (const s of segments) {
          if (s === "" || s === ".") continue;
          if (s !== "..") resolved.push(s);
          else if (resolved.pop() === undefined) climbs = true;
        }
        const result = canonicalPath(`/${segments.join("/")}`);
        if (climbs) expect(result.ok).toBe(false);
        else expect(result).toEqual({ ok: true, path: `/${resolved.join("/")}` });
      }),
      { numRuns: 500 },
    );
  });

  it("is idempotent: a canonical path is its own canonical form", () => {
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        const once = canonicalPath(new URL(`http://x${path}`).pathname);
        if (!once.ok) return;
        expect(canonicalPath(once.path)).toEqual(once);
      }),
      { numRuns: 300 },
    );
  }, 30_000);
});

describe("canonicalRequest", () => {
  it("keeps the query, method, headers and body, and moves only the path", async () => {
    const sent = new Request("http://edge.local/v3/global/asset/%68ost?organization_id=%61", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: '{"host_ids":["1.1.1.1"]}',
    });
    const result = canonicalRequest(sent);
    if (!result.ok) throw new Error(result.problem);
    expect(result.request.url).toBe("http://edge.local/v3/global/asset/host?organization_id=%61");
    expect(result.request.method).toBe("POST");
    expect(result.request.headers.get("authorization")).toBe("Bearer t");
    expect(await result.request.text()).toBe('{"host_ids":["1.1.1.1"]}');
  });

  it("hands back the same request when its path is already canonical", () => {
    const sent = new Request("http://edge.local/api/v2/hosts/1.1.1.1?x=%2F");
    const result = canonicalRequest(sent);
    expect(result.ok && result.request).toBe(sent);
  });

  it("names the API of a refused path however its letters were spelled (lenientPath)", () => {
    expect(lenientPath(new Request("http://x/%61pi//v1/data/a%5Cb"))).toBe("/api/v1/data/a%5Cb");
  });

  it("routes the runtime's own dot-segment resolution the same way (lenientPath)", () => {
    expect(lenientPath(new Request("http://x/api/v2/%2e/hosts/1.1.1.1/"))).toBe("/api/v2/hosts/1.1.1.1");
  });
});

describe("refusedTargetResponse", () => {
  it.each([
    ["http://x/v3/global/asset/a%2Fb", "application/problem+json", 400, "detail"],
    ["http://x/api/v1/view/certificates/a%2Fb", "application/json", 400, "error_code"],
    ["http://x/api/v2/hosts/a%2Fb", "application/json", 400, "code"],
  ])("answers %s in its API's shape", async (url, type, status, member) => {
    const response = refusedTargetResponse(new Request(url), "the request path has an encoded '/'");
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toHaveProperty(member);
    expect(JSON.stringify(body)).toContain("encoded '/'");
  });
});
