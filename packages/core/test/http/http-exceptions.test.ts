import { describe, expect, it } from "vitest";
import { errorKindOfHttpStatus } from "../../src/http";

describe("errorKindOfHttpStatus", () => {
  it.each([
    [400, "bad_request"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [405, "method_not_allowed"],
    [413, "payload_too_large"],
    [415, "unsupported_media_type"],
    [429, "bad_request"],
    [500, "internal"],
    [503, "internal"],
  ] as const)("answers an HTTPException of %i as %s", (status, kind) => {
    expect(errorKindOfHttpStatus(status)).toBe(kind);
  });
});
