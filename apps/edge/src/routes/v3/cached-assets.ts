import { CREDIT_COSTS, parseRfc3339Nanos, V3_PROBLEM_MEDIA_TYPE } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import type { z } from "zod";
import type { Component } from "../../openapi/components";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { inBothModes } from "../../pipeline/price";
import type { EdgeServices } from "../../services";
import { type PlatformCall, type PlatformUpstream, relayPlatform } from "../../upstream/platform";
import type { Relayed } from "../../upstream/relay";
import { type AssetKind, CERTIFICATE_PEM, HOST, WEBPROPERTY } from "./asset-kinds";
import { forwardPlatform } from "./passthrough";
import { isObject, jsonObject } from "../../http/json-body";

// Single Platform lookups through the shared document cache (api/cached-document.ts), as the
// legacy views are: a host (now or at `at_time`), a certificate and its PEM form, a web property.
// Anything the cache key cannot describe (an id the upstream refuses, other parameters) is
// forwarded as the pass-through forwards it, for the upstream's own answer.

/**
 * One Platform call for `kind`, asking for its media type (and problem+json for errors), its
 * answer in the shape the cache modules read (the body stays as it came).
 */
export async function relayAsset(
  services: EdgeServices,
  platform: PlatformUpstream,
  kind: AssetKind,
  call: Omit<PlatformCall, "signal" | "accept">,
): Promise<Relayed> {
  const accept = `${kind.mediaType}, ${V3_PROBLEM_MEDIA_TYPE}`;
  const relayed = await relayPlatform(platform, { ...call, accept }, services.config.upstreamTimeoutMs);
  return { ...relayed, json: undefined, contentType: relayed.contentType ?? "application/json" };
}

/**
 * How long `kind`'s documents stay fresh: the legacy index's TTL. A host at a past point in time
 * never expires; a web property at one still may (its website part is the current one).
 */
export function assetTtlSeconds(services: EdgeServices, kind: AssetKind, atMs: number | null): number | null {
  if (kind === HOST && atMs !== null && atMs <= services.clock.now()) return null;
  const { ttlSeconds } = services.config.cache;
  return kind === HOST
    ? ttlSeconds.hosts
    : kind === WEBPROPERTY
      ? ttlSeconds.websites
      : ttlSeconds.certificates;
}

/** A point in time as a request names it, as the cache keys it (`nanos`), and in milliseconds. */
export interface Instant {
  readonly text: string;
  readonly ms: number;
  readonly nanos: string;
}

/** The instant `text` names, or null when it is no RFC 3339 time. */
export function instantOf(text: string): Instant | null {
  const parsed = parseRfc3339Nanos(text);
  return parsed ? { text, ...parsed } : null;
}

/**
 * The point in time a request names, when the cache can key it: none, or one `at_time` the
 * kind takes; the caller's `organization_id` is replaced upstream, so it changes nothing.
 * Undefined: the request is not one the cache describes.
 */
export function requestedInstant(kind: AssetKind, params: URLSearchParams): Instant | null | undefined {
  const allowed = (name: string) => name === "organization_id" || (kind.atTime && name === "at_time");
  if (![...params.keys()].every(allowed)) return undefined;
  const values = params.getAll("at_time");
  if (values.length === 0) return null;
  const instant = values.length === 1 ? instantOf(values[0] ?? "") : null;
  return instant ?? undefined;
}

/**
 * The row a lookup keeps: a found asset without its envelope (as a bulk keeps it), or the PEM
 * text; a 404 problem as the upstream sent it (only a JSON one).
 */
function rowOf(kind: AssetKind, relayed: Relayed): { body: string; negative: boolean } | null {
  const text = () => new TextDecoder().decode(relayed.body);
  if (relayed.status === 404) return jsonObject(relayed.body) ? { body: text(), negative: true } : null;
  if (relayed.status !== 200) return null;
  if (kind === CERTIFICATE_PEM) return { body: text(), negative: false };
  const result = jsonObject(relayed.body)?.result;
  return isObject(result) ? { body: JSON.stringify(result), negative: false } : null;
}

/** A found asset's answer: its row (kept without the envelope, as a bulk keeps it) in one. */
const enveloped = (body: string) => `{"result":${body}}`;

async function serveAsset(c: ApiContext, kind: AssetKind, id: string): Promise<Response> {
  const services = c.get("services");
  const { platform } = services;
  const key = kind.key(id);
  const { pathname, search } = requestTarget(c.req.url);
  const at = search === "" ? null : requestedInstant(kind, new URLSearchParams(search));
  // Without a Platform upstream the forwarder gives its 503.
  if (!platform || key === null || at === undefined) return forwardPlatform()(c);
  return serveCachedDocument(c, {
    key: { index: kind.index, id: key, atTime: at?.nanos ?? "" },
    // As the pass-through asks: the caller's query as sent, its organization_id replaced upstream.
    path: pathname + search,
    ttlSeconds: assetTtlSeconds(services, kind, at?.ms ?? null),
    negativeBody: null,
    toRow: (relayed) => rowOf(kind, relayed),
    // The PEM form is its row's text as it is.
    answer: { render: kind === CERTIFICATE_PEM ? undefined : enveloped, contentType: kind.mediaType },
    negativeResponse: (_c, doc) =>
      new Response(doc.body, { status: 404, headers: { "content-type": V3_PROBLEM_MEDIA_TYPE } }),
    fetchUpstream: (path) => relayAsset(services, platform, kind, { method: "GET", target: path }),
  });
}

/** The lookup of `kind` at `path`, whose one parameter names the asset. */
export function cachedAssetRoute(
  kind: AssetKind,
  path: string,
  summary: string,
  shape: { query?: z.ZodObject; ok: Component | "file" },
): ApiRoute {
  const param = /:(\w+)/.exec(path)?.[1] ?? "";
  return defineRoute({
    method: "GET",
    path,
    operation: kind.operation,
    price: inBothModes({ credits: CREDIT_COSTS[kind.operation].credits, per: "request" }),
    cache: { kind: "document", ttl: kind === HOST ? "hosts" : "per_index" },
    summary,
    ...shape,
    handler: (c) => serveAsset(c, kind, c.req.param(param) ?? ""),
  });
}
