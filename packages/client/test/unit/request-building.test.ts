import { describe, expect, it } from "vitest";
import { abortableSleep } from "../../src/abortable-sleep";
import { basicAuthorization } from "../../src/basic-auth";
import { queryString, serviceRoot } from "../../src/transport";

describe("basicAuthorization", () => {
  it("encodes id:secret as RFC 7617 Basic credentials", () => {
    expect(basicAuthorization("Aladdin", "open sesame")).toBe("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  });
  it("encodes non-Latin-1 secrets as UTF-8", () => {
    const header = basicAuthorization("id", "pässwörd✓");
    expect(new TextDecoder().decode(Uint8Array.from(atob(header.slice(6)), (c) => c.charCodeAt(0)))).toBe(
      "id:pässwörd✓",
    );
  });
  it("refuses an id with a colon, which Basic cannot carry", () => {
    expect(() => basicAuthorization("a:b", "s")).toThrow(TypeError);
  });
});

describe("serviceRoot", () => {
  it("treats a base URL with and without /api as the same service", () => {
    expect(serviceRoot("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787");
    expect(serviceRoot("http://127.0.0.1:8787/api/")).toBe("http://127.0.0.1:8787");
    expect(serviceRoot("https://example.com/scangate/api")).toBe("https://example.com/scangate");
  });
  it("refuses a URL that is not http(s)", () => {
    expect(() => serviceRoot("ftp://example.com")).toThrow(TypeError);
  });
});

describe("queryString", () => {
  it("repeats list parameters, skips undefined ones and encodes values", () => {
    expect(
      queryString({
        q: "services.port: 22",
        per_page: 5,
        cursor: undefined,
        fields: ["ip", "location.country"],
      }),
    ).toBe("?q=services.port%3A+22&per_page=5&fields=ip&fields=location.country");
    expect(queryString({ q: undefined })).toBe("");
  });
});

describe("abortableSleep", () => {
  it("rejects with the abort reason as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(sleeping).rejects.toThrow("stop");
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
