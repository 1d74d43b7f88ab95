import {
  ApiError,
  loneSurrogatePath,
  requireUtf8Query,
  V3InputError,
  type V3ErrorDetail,
} from "@scangate/core";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./context";
import { readJsonBody } from "./validation";

/**
 * Inputs of the Platform (v3) routes. A failure is a 400 problem whose `errors` name each bad
 * input as the Platform does: `location` (`body.host_ids[3]`, `query.at_time`), `message` and
 * the `value` sent.
 */

function location(where: "body" | "query" | "path", path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`),
    where,
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function v3ValidationError(
  where: "body" | "query" | "path",
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
): V3InputError {
  const errors: V3ErrorDetail[] = issues.slice(0, 20).map((issue) => ({
    location: location(where, issue.path),
    message: issue.message,
    value: valueAt(input, issue.path),
  }));
  const first = errors[0];
  return new V3InputError(
    "bad_request",
    first ? `validation failed: ${first.location}: ${first.message}` : "validation failed",
    { errors },
  );
}

/** Validates `input` (from `where`) against a core schema; a 400 problem otherwise. */
export function parseV3<S extends z.ZodType>(
  where: "body" | "query" | "path",
  schema: S,
  input: unknown,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw v3ValidationError(where, input, result.error.issues);
  return result.data;
}

/**
 * The JSON body, validated. Malformed JSON, an empty body, non-UTF-8 bytes or a string holding
 * a lone surrogate are a 400 (the body cannot be read as well-formed text); a body that reads
 * but breaks the schema is the operation's invalid-input status.
 */
export async function v3Body<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const body = await readJsonBody(c);
  const broken = loneSurrogatePath(body);
  if (broken !== null) {
    throw new ApiError(
      "bad_request",
      `${broken}: holds a lone surrogate (\\ud800-\\udfff unpaired); text must be well-formed Unicode`,
      { errors: [{ location: broken, message: "holds a lone surrogate" }] },
    );
  }
  return parseV3("body", schema, body);
}

/**
 * The query parameters, validated. Escapes that are not UTF-8 (a lone surrogate's `%ED%A0%80`)
 * are a 400 rather than their raw text.
 */
export function v3Query<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.output<S> {
  requireUtf8Query(c.req.url);
  const { organization_id: _organization, ...query } = c.req.query();
  return parseV3("query", schema, query);
}

/** Answers `body` as JSON of the route's own media type (the SDK matches success by it). */
export function v3Json(c: Context<AppEnv>, body: unknown, mediaType: string): Response {
  return c.body(JSON.stringify(body), 200, { "Content-Type": mediaType });
}
