import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApiError,
  ERROR_KINDS,
  ERROR_TABLE,
  bulkUnknownCertificateSchema,
  describeIssues,
  errorBodySchema,
  errorStatus,
  isApiError,
  rateLimitErrorSchema,
  renderError,
  renderErrorBody,
  v1ErrorSchema,
  v1RateLimitErrorSchema,
  v1UnauthorizedErrorSchema,
  v2ErrorSchema,
  v2InvalidQueryErrorSchema,
  v2RateLimitErrorSchema,
  type ApiVersion,
} from "../src/index";
import { accepts, rejects } from "./schema-assertions";

const VERSIONS: ApiVersion[] = ["v1", "v2"];

describe("error table", () => {
  it("covers every kind exactly once", () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it.each(ERROR_KINDS.flatMap((kind) => VERSIONS.map((version) => [kind, version] as const)))(
    "%s renders a %s body its own schema parses, with a 4xx/5xx status",
    (kind, version) => {
      const { status, body } = renderError(kind, version);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      accepts(errorBodySchema(kind, version), body);
      expect(typeof body.error).toBe("string");
      if ("error_code" in body) expect(body.error_code).toBe(status);
      if ("code" in body) expect(body.code).toBe(status);
    },
  );

  it("renders v1 errors as {error_code, error} and v2 as {code, status: reason phrase, error}", () => {
    expect(renderErrorBody("not_found", "v1")).toEqual({ error_code: 404, error: "page not found" });
    expect(renderErrorBody("internal", "v1")).toEqual({ error_code: 500, error: "unknown error occurred" });
    expect(renderErrorBody("not_found", "v2")).toMatchObject({ code: 404, status: "Not Found" });
    expect(renderErrorBody("upstream_timeout", "v2")).toMatchObject({ code: 504, status: "Gateway Timeout" });
  });

  it("invalid_query is 400 in v1 and 422 with position and token in v2", () => {
    expect(renderError("invalid_query", "v1")).toEqual({
      status: 400,
      body: { error_code: 400, error: "query could not be parsed" },
    });
    const v2 = renderError("invalid_query", "v2", undefined, { position: 12, token: ")" });
    expect(v2.status).toBe(422);
    expect(accepts(v2InvalidQueryErrorSchema, v2.body)).toEqual({
      code: 422,
      status: "Unprocessable Entity",
      error: "Invalid search. Your query could not be parsed",
      position: 12,
      token: ")",
    });
  });

  it("unauthorized is 403 with error_type `unathorized` in v1 and 401 in v2", () => {
    const v1 = renderError("unauthorized", "v1");
    expect(v1.status).toBe(403);
    expect(accepts(v1UnauthorizedErrorSchema, v1.body)).toMatchObject({
      status: "error",
      error_type: "unathorized",
    });
    const v2 = renderError("unauthorized", "v2");
    expect(v2.status).toBe(401);
    expect(accepts(v2ErrorSchema, v2.body)).toMatchObject({ code: 401, status: "Unauthorized" });
  });

  it("burst and quota 429s share a shape but differ in error_type and text; v1 keeps error_code", () => {
    expect(renderErrorBody("rate_limited", "v1")).toEqual({
      error_code: 429,
      status: "error",
      error_type: "rate_limit_exceeded",
      error: "rate limit exceeded",
    });
    expect(renderErrorBody("quota_exceeded", "v1")).toEqual({
      error_code: 429,
      status: "error",
      error_type: "quota_exceeded",
      error: "You have used your full quota for this billing period.",
    });
    const v2 = renderErrorBody("rate_limited", "v2");
    accepts(v2RateLimitErrorSchema, v2);
    accepts(rateLimitErrorSchema, v2);
    expect(v2).not.toHaveProperty("error_code");
    expect([errorStatus("rate_limited", "v1"), errorStatus("quota_exceeded", "v2")]).toEqual([429, 429]);
  });

  it("keeps a custom message, even an empty one", () => {
    expect(renderErrorBody("not_found", "v1", "")).toEqual({ error_code: 404, error: "" });
    expect(renderErrorBody("bad_request", "v2", "per_page must be at most 100").error).toBe(
      "per_page must be at most 100",
    );
  });

  it("adds extra keys without letting them replace the shape's own keys", () => {
    const body = renderErrorBody("bad_request", "v1", undefined, { error_code: 200, field: "page" });
    expect(body).toEqual({ error_code: 400, error: "bad request", field: "page" });
  });
});

describe("error body schemas", () => {
  it("refuse bodies missing their required keys", () => {
    rejects(v1ErrorSchema, { error: "x" });
    rejects(v1ErrorSchema, { error_code: 200, error: "x" });
    rejects(v1UnauthorizedErrorSchema, { status: "error", error_type: "unauthorized", error: "x" });
    rejects(v1RateLimitErrorSchema, { status: "error", error_type: "rate_limit_exceeded", error: "x" });
    rejects(v2ErrorSchema, { code: 404, error: "x" });
    rejects(rateLimitErrorSchema, { status: "error", error_type: "slow_down", error: "x" });
  });
  it("bulk unknown-certificate entries are {error, error_type: unknown, status: error}", () => {
    accepts(bulkUnknownCertificateSchema, {
      error: "certificate not found",
      error_type: "unknown",
      status: "error",
    });
    rejects(bulkUnknownCertificateSchema, { error: "x", error_type: "missing", status: "error" });
  });
});

describe("ApiError", () => {
  it("carries its kind, message and extra and renders per version", () => {
    const error = new ApiError("invalid_query", undefined, { position: 3, token: "AND" });
    expect(isApiError(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe("invalid_query");
    expect(error.message).toBe("query could not be parsed");
    expect(error.status("v1")).toBe(400);
    expect(error.render("v2")).toMatchObject({ status: 422, body: { position: 3, token: "AND" } });
  });
  it("uses a given message in both versions", () => {
    const error = new ApiError("not_found", "job not found");
    expect(error.message).toBe("job not found");
    expect(error.render("v1").body).toEqual({ error_code: 404, error: "job not found" });
    expect(error.render("v2").body).toEqual({ code: 404, status: "Not Found", error: "job not found" });
  });
});

describe("describeIssues", () => {
  it("names each failed input and why, the first five only, so a long bad list makes a short message", () => {
    const schema = z.object({ ids: z.array(z.string().max(3)), note: z.string() });
    const one = schema.safeParse({ ids: ["ok"], note: 1 });
    expect(one.success).toBe(false);
    expect(describeIssues(one.error!)).toBe("note: Invalid input: expected string, received number");
    const many = schema.safeParse({ ids: Array.from({ length: 9 }, () => "long"), note: "n" });
    const message = describeIssues(many.error!);
    expect(message.split("; ").map((part) => part.split(":")[0])).toEqual([
      "ids.0",
      "ids.1",
      "ids.2",
      "ids.3",
      "ids.4",
    ]);
  });
});
