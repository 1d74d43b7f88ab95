import {
  CREDIT_COSTS,
  renderV3Problem,
  v3BulkInputOfQuery,
  v3CertificateListInputSchema,
  v3HostListInputSchema,
  v3WebpropertyListInputSchema,
} from "@scangate/core";
import type { z } from "zod";
import { requestTarget } from "@scangate/core/http";
import type { Component } from "../../openapi/components";
import { bulkResponse, lookupCachedBulk, serveBulkPerAsset } from "../../pipeline/cached-bulk";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { readRequestBody } from "../../pipeline/exchange";
import { inBothModes } from "../../pipeline/price";
import type { BulkAnswerEntry, BulkCodec } from "../../cache/bulk-fetch";
import type { Relayed } from "../../upstream/relay";
import { type AssetKind, comparableAddress, HOST } from "./asset-kinds";
import { assetTtlSeconds, type Instant, instantOf, relayAsset } from "./cached-assets";
import { forwardPlatform } from "./passthrough";
import { isObject, jsonObject, jsonOfText } from "../../http/json-body";
import { bodyText, type KeptBulkRequest } from "../../cache/bulk-answers";

const utf8 = new TextEncoder();
const RESULT_OPEN = utf8.encode('{"result":[');
const COMMA = utf8.encode(",");
const RESULT_CLOSE = utf8.encode("]}");

// Platform bulk lookups through the shared document cache: the ids the cache holds are answered
// from it, and ONE upstream call asks for the rest (joining calls under way for some). The answer
// is the upstream's `{"result": [asset, ...]}`: the assets found, in the order asked, each once;
// unknown ids left out. The cache keeps each asset (without the envelope, so a single lookup's row
// serves a bulk and back) and a negative row for each id left out. A body the cache cannot read
// (not the SDK's model, an id the upstream refuses) is forwarded as the pass-through forwards it,
// for the upstream's own answer. Each bulk has two forms: the POST with a JSON body (the SDKs
// since 0.6) and the GET with the ids in the query (`?host_ids=a,b`, the SDKs before); both read
// into one request, served alike and asked upstream with the POST, so they share cached rows.

/** The problem a single lookup of an unknown asset answers, kept for ids a bulk left out. */
export function notFoundProblem(kind: AssetKind, key: string): string {
  return JSON.stringify(renderV3Problem("not_found", `${kind.noun} ${key} not found.`).body);
}

/**
 * Splits a bulk answer by the keys asked: each asset goes to the key its resource names. A key
 * with no asset is unknown (a negative row), unless some asset named no key asked: then which
 * one it stood for cannot be told, and no negative row is kept for this answer.
 */
export function splitPlatformBulk(
  kind: AssetKind,
  keys: readonly string[],
  result: readonly unknown[],
): { entries: Map<string, BulkAnswerEntry>; unattributed: string[] } {
  // Hosts match any spelling of the address.
  const comparable = (key: string) => (kind === HOST ? comparableAddress(key) : key);
  const byComparable = new Map(keys.map((key) => [comparable(key), key]));
  const found = new Map<string, string>();
  const unattributed: string[] = [];
  for (const asset of result) {
    const resource = isObject(asset) && isObject(asset.resource) ? asset.resource : null;
    const resourceKey = resource ? kind.resourceKey(resource) : null;
    const key = resourceKey === null ? undefined : byComparable.get(resourceKey);
    if (key === undefined || found.has(key)) unattributed.push(JSON.stringify(asset));
    else found.set(key, JSON.stringify(asset));
  }
  const entries = new Map<string, BulkAnswerEntry>();
  for (const key of keys) {
    const text = found.get(key);
    entries.set(
      key,
      text !== undefined
        ? { text, unknown: false, present: true }
        : { text: "", row: notFoundProblem(kind, key), unknown: true, present: unattributed.length === 0 },
    );
  }
  return { entries, unattributed };
}

/**
 * The codec of one bulk request: rows of `kind` at `at` (keyed by its nanoseconds, "" for now),
 * asked for with the request's own `at_time` text. An asset that names no key asked is kept
 * for this request's answer (`unattributed`), never cached.
 */
function platformBulkCodec(
  kind: AssetKind,
  at: Instant | null,
  ttlSeconds: number | null,
  unattributed: string[],
): BulkCodec {
  return {
    index: kind.index,
    atTime: at?.nanos ?? "",
    ttlSeconds,
    requestBody: (keys) =>
      utf8.encode(JSON.stringify({ [kind.idsField]: keys, ...(at ? { at_time: at.text } : {}) })),
    readAnswer: (keys, relayed: Relayed) => {
      if (relayed.status !== 200) return null;
      const result = jsonObject(relayed.body)?.result;
      if (!Array.isArray(result)) return null;
      const split = splitPlatformBulk(kind, keys, result);
      unattributed.push(...split.unattributed);
      return split.entries;
    },
    // A negative row shows nothing: the Platform leaves unknown ids out.
    entryOf: (doc) => (doc.negative ? "" : doc.body),
  };
}

/**
 * The bulk answer: the entries of `keys` in that order, unknown ones left out, then any
 * unattributed. `bytesOf` gives an entry's UTF-8 bytes (the cache keeps those of the rows it
 * holds, so a cached answer is the runtime copying them into one buffer).
 */
export function mergePlatformBulk(
  keys: readonly string[],
  entries: ReadonlyMap<string, string>,
  unattributed: readonly string[],
  bytesOf: (key: string, entry: string) => Uint8Array = (_, entry) => utf8.encode(entry),
): Blob {
  const assets = keys.flatMap((key) => {
    const entry = entries.get(key);
    return entry ? [bytesOf(key, entry)] : [];
  });
  const members = [...assets, ...unattributed.map((text) => utf8.encode(text))];
  return new Blob([
    RESULT_OPEN,
    ...members.flatMap((member, i) => (i === 0 ? [member] : [COMMA, member])),
    RESULT_CLOSE,
  ]);
}

const BODY_SCHEMAS = {
  host_ids: v3HostListInputSchema,
  certificate_ids: v3CertificateListInputSchema,
  webproperty_ids: v3WebpropertyListInputSchema,
} as const;

interface PlatformBulkRequest extends KeptBulkRequest {
  /** Each asset once, as cache keys, in the order first asked. */
  readonly unique: string[];
  readonly at: Instant | null;
}

/** The ids and point in time of a bulk input (the POST body's shape), or null when the cache cannot describe it. */
function bulkRequestOf(kind: AssetKind, body: unknown): PlatformBulkRequest | null {
  const input = BODY_SCHEMAS[kind.idsField].safeParse(body);
  if (!input.success) return null;
  const ids = (input.data as Record<string, unknown>)[kind.idsField] as string[];
  const keys = ids.map((id) => kind.key(id));
  if (keys.some((key) => key === null)) return null;
  const atText = kind.atTime ? (input.data as { at_time?: string }).at_time : undefined;
  const at = atText === undefined ? null : instantOf(atText);
  if (atText !== undefined && at === null) return null;
  return { unique: [...new Set(keys as string[])], at };
}

/** Whether a query names no parameter but `names`. */
function onlyParameters(search: string, names: readonly string[]): boolean {
  return [...new URLSearchParams(search).keys()].every((name) => names.includes(name));
}

/** The request of a POST bulk: its JSON body's text, with no query but `organization_id`. */
export function readBulkRequest(kind: AssetKind, text: string, search: string): PlatformBulkRequest | null {
  return onlyParameters(search, ["organization_id"]) ? bulkRequestOf(kind, jsonOfText(text)) : null;
}

/**
 * The request of a GET bulk: its ids, `at_time` where the kind takes it, and `organization_id`,
 * read as the POST body (core v3BulkInputOfQuery).
 */
function readBulkQuery(kind: AssetKind, search: string): PlatformBulkRequest | null {
  const known = ["organization_id", kind.idsField, ...(kind.atTime ? ["at_time"] : [])];
  if (!onlyParameters(search, known)) return null;
  return bulkRequestOf(kind, v3BulkInputOfQuery(new URLSearchParams(search), kind.idsField));
}

/**
 * A bulk the cache cannot describe, forwarded as sent for the upstream's own answer: it holds the
 * distinct ids it lists (the POST's body, the GET's query) and settles to the assets answered.
 */
function forwardBulk(c: ApiContext, kind: AssetKind): Promise<Response> {
  const ids = { field: kind.idsField, in: c.req.method === "POST" ? "body" : "query" } as const;
  return forwardPlatform({ ids })(c);
}

async function serveBulk(c: ApiContext, kind: AssetKind): Promise<Response> {
  const services = c.get("services");
  const { platform } = services;
  // Without a Platform upstream the forwarder gives its 503.
  if (!platform) return forwardPlatform()(c);
  const { pathname, search } = requestTarget(c.req.url);
  const text = c.req.method === "POST" ? bodyText(await readRequestBody(c)) : "";
  // Kept answers are keyed by API, operation, form and what the request asks.
  const key = `v3 ${kind.bulkOperation} ${c.req.method} ${search}\n${text}`;
  const request =
    text === null
      ? null
      : (services.bulkAnswers.request<PlatformBulkRequest>(key) ??
        (c.req.method === "POST" ? readBulkRequest(kind, text, search) : readBulkQuery(kind, search)));
  if (!request) return forwardBulk(c, kind);
  const unattributed: string[] = [];
  const ttlSeconds = assetTtlSeconds(services, kind, request.at?.ms ?? null);
  const codec = platformBulkCodec(kind, request.at, ttlSeconds, unattributed);
  const { deps, lookup } = await lookupCachedBulk(c, request.unique, codec, (body) =>
    relayAsset(services, platform, kind, {
      method: "POST",
      target: pathname,
      body,
      contentType: "application/json",
    }),
  );
  const outcome = await serveBulkPerAsset(c, deps, lookup, () => unattributed.length);
  // A bulk the cache answered whole has nothing unattributed.
  return bulkResponse(c, codec, { key, request }, outcome, {
    contentType: kind.mediaType,
    merge: (entries, bytesOf) => mergePlatformBulk(request.unique, entries, unattributed, bytesOf),
  });
}

/**
 * The two routes of a bulk lookup at `path`: the POST with its JSON body (`shape.body`) and the
 * GET with the ids in its query (`shape.query`), one operation and price, served alike.
 */
export function cachedBulkRoutes(
  kind: AssetKind,
  path: string,
  summary: string,
  shape: { body: Component; query: z.ZodObject; ok: Component },
): ApiRoute[] {
  const forms = [
    { method: "POST", summary, body: shape.body },
    { method: "GET", summary: `${summary}; the ids in the query, comma-separated`, query: shape.query },
  ] as const;
  return forms.map((form) =>
    defineRoute({
      ...form,
      path,
      operation: kind.bulkOperation,
      price: inBothModes({ credits: CREDIT_COSTS[kind.bulkOperation].credits, per: "asset" }),
      cache: { kind: "bulk" },
      ok: shape.ok,
      handler: (c) => serveBulk(c, kind),
    }),
  );
}
