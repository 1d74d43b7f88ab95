import { renderError, renderV3Problem, type ErrorKind } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { errorFromResponse, parseResetsAt } from "../../src/error-mapping";
import {
  AuthenticationError,
  BadRequestError,
  InvalidQueryError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ScangateError,
  ServerError,
  UpstreamError,
} from "../../src/errors";

const request = { method: "POST", path: "/api/v1/search/ipv4" };
const NOW = Date.parse("2026-01-01T00:00:00Z");
const map = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  errorFromResponse(status, body, new Headers(headers), request, NOW);

describe("errorFromResponse", () => {
  it.each([
    ["v1", "unauthorized", AuthenticationError, 403],
    ["v2", "unauthorized", AuthenticationError, 401],
    ["v1", "forbidden", AuthenticationError, 403],
    ["v1", "not_found", NotFoundError, 404],
    ["v2", "not_found", NotFoundError, 404],
    ["v1", "invalid_query", InvalidQueryError, 400],
    ["v2", "invalid_query", InvalidQueryError, 422],
    ["v1", "bad_request", BadRequestError, 400],
    ["v2", "payload_too_large", BadRequestError, 413],
    ["v1", "rate_limited", RateLimitError, 429],
    ["v2", "quota_exceeded", QuotaExceededError, 429],
    ["v1", "quota_exceeded", QuotaExceededError, 429],
    ["v1", "internal", ServerError, 500],
    ["v2", "upstream_error", UpstreamError, 502],
    ["v1", "upstream_timeout", UpstreamError, 504],
  ] as const)("maps the core %s %s body to %s", (version, kind, errorClass, status) => {
    const rendered = renderError(kind, version);
    const error = map(rendered.status, rendered.body);
    expect(rendered.status).toBe(status);
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(status);
    expect(error.body).toEqual(rendered.body);
    expect(error.serviceMessage).toBe(rendered.body.error);
    expect(error.message).toContain(`POST /api/v1/search/ipv4 failed with ${status}: ${rendered.body.error}`);
  });

  it("keeps the position and token of a v2 parse failure and names them in the message", () => {
    const { body } = renderError("invalid_query", "v2", undefined, { position: 7, token: ")" });
    const error = map(422, body);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as InvalidQueryError).position).toBe(7);
    expect((error as InvalidQueryError).token).toBe(")");
    expect(error.message).toContain('at position 7 near ")"');
  });

  it("reads a burst 429's Retry-After as seconds to wait", () => {
    const { body } = renderError("rate_limited", "v2");
    const error = map(429, body, { "retry-after": "3" });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3);
    expect(error.message).toContain("retry after 3 s");
  });

  it("dates a quota 429 from resets_at in the body before Retry-After", () => {
    const { body } = renderError("quota_exceeded", "v1", undefined, { resets_at: "2026-02-01 00:00:00" });
    const error = map(429, body, { "retry-after": "60" }) as QuotaExceededError;
    expect(error.resetsAt?.toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(error.message).toContain("quota resets at 2026-02-01T00:00:00.000Z");
  });

  it("dates a quota 429 from Retry-After when the body has no resets_at", () => {
    const { body } = renderError("quota_exceeded", "v2");
    const error = map(429, body, { "retry-after": "3600" }) as QuotaExceededError;
    expect(error.resetsAt?.getTime()).toBe(NOW + 3_600_000);
  });

  it("recognises the public service's quota wording without an error_type", () => {
    const error = map(429, {
      error: "You have used your full quota for this billing period.",
      error_code: 429,
    });
    expect(error).toBeInstanceOf(QuotaExceededError);
  });

  it("keeps a non-JSON body as text and says so in the message", () => {
    const error = map(502, "<html>Bad gateway</html>");
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.body).toBe("<html>Bad gateway</html>");
    expect(error.message).toContain("<html>Bad gateway</html>");
  });

  it("describes an empty error body instead of printing undefined", () => {
    const error = map(500, undefined);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain("empty body");
  });

  it("gives every mapped error the ScangateError base", () => {
    for (const status of [400, 401, 403, 404, 405, 422, 429, 500, 503]) {
      expect(map(status, {})).toBeInstanceOf(ScangateError);
    }
  });
});

describe("parseResetsAt", () => {
  it("reads the account spelling as UTC and ISO 8601 as given", () => {
    expect(parseResetsAt("2026-03-04 05:06:07")?.toISOString()).toBe("2026-03-04T05:06:07.000Z");
    expect(parseResetsAt("2026-03-04T05:06:07+01:00")?.toISOString()).toBe("2026-03-04T04:06:07.000Z");
  });

  it("ignores values that are not dates", () => {
    expect(parseResetsAt("soon")).toBeUndefined();
    expect(parseResetsAt(42)).toBeUndefined();
  });
});

describe("error detail", () => {
  it("adds a body's detail to a fixed service message", () => {
    const { body } = renderError("invalid_query", "v2", undefined, { detail: "unexpected ')'", position: 3 });
    expect(map(422, body).message).toContain(
      "Invalid search. Your query could not be parsed: unexpected ')' (at position 3)",
    );
  });
  it("does not repeat a detail the message already holds", () => {
    const { body } = renderError("invalid_query", "v1", "query could not be parsed: bad token", {
      detail: "bad token",
    });
    expect(map(400, body).message).not.toContain("bad token: bad token");
  });
});

describe("errorFromResponse on Platform (v3) problem+json bodies", () => {
  const v3Request = { method: "GET", path: "/v3/global/asset/host/1.1.1.1" };
  const mapV3 = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    errorFromResponse(status, body, new Headers(headers), v3Request, NOW);

  it.each<[ErrorKind, new (...args: never[]) => ScangateError]>([
    ["unauthorized", AuthenticationError],
    ["forbidden", AuthenticationError],
    ["not_found", NotFoundError],
    ["bad_request", BadRequestError],
    ["quota_exceeded", QuotaExceededError],
    ["rate_limited", RateLimitError],
    ["upstream_error", UpstreamError],
    ["upstream_timeout", UpstreamError],
    ["unavailable", ServerError],
    ["internal", ServerError],
  ])("maps core's %s problem to %p", (kind, type) => {
    const { status, body } = renderV3Problem(kind);
    const error = mapV3(status, body);
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.body).toEqual(body);
    expect(error.message.startsWith(`GET /v3/global/asset/host/1.1.1.1 failed with ${status}: `)).toBe(true);
  });

  it("says title and detail once, and the errors entries the detail does not already say", () => {
    const notFound = mapV3(404, renderV3Problem("not_found", "Host 192.0.2.1 not found.").body);
    expect(notFound.message).toBe(
      "GET /v3/global/asset/host/1.1.1.1 failed with 404: Not Found: Host 192.0.2.1 not found.",
    );
    expect(notFound.serviceMessage).toBe("Host 192.0.2.1 not found.");
    const spent = mapV3(422, renderV3Problem("quota_exceeded").body);
    expect(spent).toBeInstanceOf(QuotaExceededError);
    expect(spent.message).toBe(
      "GET /v3/global/asset/host/1.1.1.1 failed with 422: Unprocessable Entity (insufficient balance)",
    );
    const bad = mapV3(
      400,
      renderV3Problem("bad_request", "validation failed: query.at_time: expected RFC 3339", {
        errors: [{ location: "query.at_time", message: "expected RFC 3339", value: "x" }],
      }).body,
    );
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad).not.toBeInstanceOf(InvalidQueryError);
    expect(bad.message).toBe(
      "GET /v3/global/asset/host/1.1.1.1 failed with 400: Bad Request: validation failed: query.at_time: expected RFC 3339",
    );
  });

  it("reads a 400 naming a CenQL input as InvalidQueryError with its position and token", () => {
    const { status, body } = renderV3Problem(
      "invalid_query",
      "Invalid query: unexpected '(' (at position 20)",
      {
        errors: [
          { location: "body.query", message: "unexpected '(' (at position 20)", value: "x", position: 20 },
        ],
        position: 20,
        token: "(",
      },
    );
    const error = mapV3(status, body);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as InvalidQueryError).position).toBe(20);
    expect((error as InvalidQueryError).token).toBe("(");
    const field = mapV3(400, {
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "Invalid field: host.nope is not a field",
      errors: [{ location: "body.field", message: "host.nope is not a field" }],
    });
    expect(field).toBeInstanceOf(InvalidQueryError);
    expect((field as InvalidQueryError).position).toBeUndefined();
  });

  it("reads Retry-After of a 429 problem, and never takes a 422 without a balance message for a quota", () => {
    const limited = mapV3(429, renderV3Problem("rate_limited").body, { "retry-after": "7" });
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBe(7);
    expect(limited.message).toContain("(retry after 7 s)");
    const other = mapV3(422, {
      type: "about:blank",
      title: "Unprocessable Entity",
      status: 422,
      detail: "no",
    });
    expect(other).toBeInstanceOf(BadRequestError);
  });

  it("keeps v2 bodies, which also have a status, on the legacy mapping", () => {
    const v2 = mapV3(422, { code: 422, status: "Unprocessable Entity", error: "Invalid search: x" });
    expect(v2).toBeInstanceOf(InvalidQueryError);
  });
});
