import { describe, expect, it } from "vitest";
import { basicAuthorization, basicToken, parseBasicAuth } from "../../src/http";

const withAuthorization = (value?: string) =>
  new Request("http://x/api/v1/account", value === undefined ? {} : { headers: { Authorization: value } });

describe("parseBasicAuth", () => {
  it("reads Basic credentials, the secret keeping any colons", () => {
    expect(parseBasicAuth(withAuthorization(`Basic ${btoa("id:se:cret")}`))).toEqual({
      username: "id",
      password: "se:cret",
    });
    expect(parseBasicAuth(withAuthorization(`basic   ${btoa("id:x")}`))).toEqual({
      username: "id",
      password: "x",
    });
  });

  it("reads UTF-8 credentials", () => {
    expect(parseBasicAuth(withAuthorization(basicAuthorization("id", "pässwörd✓")))?.password).toBe(
      "pässwörd✓",
    );
  });

  it("accepts the scheme in any case", () => {
    expect(parseBasicAuth(withAuthorization(`bAsIc ${basicToken("a", "b")}`))?.username).toBe("a");
  });

  it.each([
    undefined,
    "",
    "Bearer abc",
    `Bearer ${basicToken("a", "b")}`,
    "Basic",
    "Basic ",
    "Basic !!",
    `Basic ${btoa(":secret")}`,
    `Basic ${btoa("nocolon")}`,
  ])("reads %j as no credentials", (header) => {
    expect(parseBasicAuth(withAuthorization(header))).toBeNull();
  });
});

describe("basicAuthorization", () => {
  it("is RFC 7617's example", () => {
    expect(basicAuthorization("Aladdin", "open sesame")).toBe("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  });

  it("encodes UTF-8, which btoa alone cannot", () => {
    expect(basicToken("id", "✓")).toBe(btoa("id:\u00e2\u009c\u0093"));
  });
});
