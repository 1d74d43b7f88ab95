import {
  ApiError,
  describeIssues,
  MAX_REQUEST_BODY_BYTES,
  requireUtf8Query,
  requireWellFormedJson,
} from "@scangate/core";
import type { Context } from "hono";
import type { z } from "zod";

/**
 * A JSON body checked against `schema`; anything else (a lone surrogate in a string too) is a
 * 400/413/415 saying what is wrong.
 */
export async function parseJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  emptyAs?: unknown,
): Promise<z.infer<T>> {
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > MAX_REQUEST_BODY_BYTES) throw new ApiError("payload_too_large");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("bad_request", "request body is not valid UTF-8");
  }
  let value: unknown = emptyAs;
  if (text.trim() !== "" || emptyAs === undefined) {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\b/i.test(type)) throw new ApiError("unsupported_media_type");
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError("bad_request", "request body is not valid JSON");
    }
    requireWellFormedJson(value);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError("bad_request", describeIssues(parsed.error));
  return parsed.data;
}

/** Query parameters checked against `schema` (escapes that are not UTF-8 are a 400 first). */
export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  requireUtf8Query(c.req.url);
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new ApiError("bad_request", describeIssues(parsed.error));
  return parsed.data;
}

/**
 * A body's JSON as it is (no schema), or undefined for a body that is not UTF-8 JSON: what the
 * edge reads off bodies it forwards (a price's units, a search's page) and off Platform answers.
 */
export function jsonOf(body: Uint8Array | undefined): unknown {
  if (!body) return undefined;
  try {
    return jsonOfText(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    return undefined;
  }
}

/** `text` as JSON, or undefined when it is not JSON. */
export function jsonOfText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A body's JSON object, or undefined for a body that is not one. */
export function jsonObject(body: Uint8Array | undefined): Record<string, unknown> | undefined {
  const parsed = jsonOf(body);
  return isObject(parsed) ? parsed : undefined;
}
