import { describe, expect, it } from "vitest";
import { basicAuthorization, basicToken, parseBasicAuth } from "../../src/http";

const withAuthorization = (value?: string) =>
  new Request("http://x/api/v1/account", value === undefined ? {} : { headers: { Authorization: value } });
describe("parseBasicAuth", () => {
  it("reads the user name and the password, which may hold colons", () => {
    expect(parseBasicAuth(withAuthorization(basicAuthorization("id", "se:cr:et")))).toEqual({
      username: "id",
      password: "se:cr:et",
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
    ["no header", undefined],
    ["another scheme", `Bearer ${basicToken("a", "b")}`],
    ["no token", "Basic "],
    ["a token that is not base64", "Basic !!!"],
    ["a token without a colon", `Basic ${btoa("nocolon")}`],
  ])("refuses %s", (_, header) => {
    expect(parseBasicAuth(withAuthorization(header))).toBeNull();
  });
});

describe("basicAuthorization", () => {
  it("is RFC 7617's example", () => {
    expect(basicAuthorization("Aladdin", "open sesame")).toBe("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  });
});
