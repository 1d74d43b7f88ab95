import { describe, expect, it } from "vitest";
import { versionOfPath, lenientPath } from "../../src/http";

describe("lenientPath", () => {
  it.each([
    ["http://x/api//v2/hosts/1.1.1.1", "/api/v2/hosts/1.1.1.1"],
    ["http://x/api/v1/account/", "/api/v1/account"],
    ["http://x///api///v1//view/certificates/ab/", "/api/v1/view/certificates/ab"],
    ["http://x/", "/"],
    ["http://x//", "/"],
    ["http://x/api/v2/hosts/search?q=a//b/", "/api/v2/hosts/search"],
  ])("routes %s as %s", (url, path) => {
    expect(lenientPath(new Request(url))).toBe(path);
  });
});

describe("versionOfPath", () => {
  it.each([
    ["/api/v1", "v1"],
    ["/api/v1/search/certificates", "v1"],
    ["/api/v1x", "v2"],
    ["/api/v2/hosts/search", "v2"],
    ["/admin/tenants", "v2"],
    ["/nowhere", "v2"],
  ] as const)("answers %s in %s bodies", (path, version) => {
    expect(versionOfPath(path)).toBe(version);
  });
});
