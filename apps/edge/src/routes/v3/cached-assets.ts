import {
  CREDIT_COSTS,
  parseRfc3339Nanos,
  v3AtTimeQuerySchema,
  v3CertificateAssetSchema,
  v3Envelope,
  v3HostAssetSchema,
  V3_PROBLEM_MEDIA_TYPE,
  v3WebpropertyAssetSchema,
} from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import type { z } from "zod";
import type { CachedDocument } from "../../cache/interface";
import { component } from "../../openapi/components";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { inBothModes } from "../../pipeline/price";
import type { EdgeServices } from "../../services";
import { type PlatformRelayed, type PlatformUpstream, relayPlatform } from "../../upstream/platform";
import type { Relayed } from "../../upstream/relay";
import { type AssetKind, CERTIFICATE, CERTIFICATE_PEM, HOST, WEBPROPERTY } from "./asset-kinds";
import { resultOf } from "./bulk-codec";
import { forwardPlatform } from "./passthrough";

// Single Platform lookups through the shared document cache (api/cached-document.ts), as the
// legacy views are: a host (now or at `at_time`), a certificate and its PEM form, a web property.
// Anything the cache key cannot describe (an id the upstream refuses, other parameters) is
// forwarded as the pass-through forwards it, for the upstream's own answer.

/** A Platform answer in the shape the cache modules read (the body stays as it came). */
export function asRelayed(relayed: PlatformRelayed): Relayed {
  return { ...relayed, json: undefined, contentType: relayed.contentType ?? "application/json" };
}

/** The Accept the edge sends for `kind`: its own media type, and problem+json for errors. */
export function acceptFor(kind: AssetKind): string {
  return `${kind.mediaType}, ${V3_PROBLEM_MEDIA_TYPE}`;
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

/**
 * The point in time a request names, when the cache can key it: none, or one `at_time` the
 * kind takes; the caller's `organization_id` is replaced upstream, so it changes nothing.
 * Undefined: the request is not one the cache describes.
 */
export function requestedInstant(
  kind: AssetKind,
  params: URLSearchParams,
): { text: string; ms: number; nanos: string } | null | undefined {
  const allowed = (name: string) => name === "organization_id" || (kind.atTime && name === "at_time");
  if (![...params.keys()].every(allowed)) return undefined;
  const values = params.getAll("at_time");
  if (values.length === 0) return null;
  const text = values[0] ?? "";
  const parsed = values.length === 1 ? parseRfc3339Nanos(text) : null;
  return parsed ? { text, ...parsed } : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A 404 problem kept as the upstream sent it (only a JSON one). */
function negativeRow(relayed: Relayed): { body: string; negative: true } | null {
  const text = new TextDecoder().decode(relayed.body);
  try {
    return isObject(JSON.parse(text)) ? { body: text, negative: true } : null;
  } catch {
    return null;
  }
}

/** The row a lookup keeps: a found asset without its envelope (as a bulk keeps it), or the PEM text. */
function rowOf(kind: AssetKind, relayed: Relayed): { body: string; negative: boolean } | null {
  if (relayed.status === 404) return negativeRow(relayed);
  if (relayed.status !== 200) return null;
  if (kind === CERTIFICATE_PEM) return { body: new TextDecoder().decode(relayed.body), negative: false };
  const result = resultOf(relayed.body);
  return isObject(result) ? { body: JSON.stringify(result), negative: false } : null;
}

function documentResponse(kind: AssetKind, doc: CachedDocument): Response {
  const body = kind === CERTIFICATE_PEM ? doc.body : `{"result":${doc.body}}`;
  return new Response(body, { status: 200, headers: { "content-type": kind.mediaType } });
}

async function serveAsset(c: ApiContext, kind: AssetKind, platform: PlatformUpstream, id: string) {
  const services = c.get("services");
  const key = kind.key(id);
  const { pathname, search } = requestTarget(c.req.url);
  const at = requestedInstant(kind, new URLSearchParams(search));
  if (key === null || at === undefined) return forwardPlatform()(c);
  return serveCachedDocument(c, {
    key: { index: kind.index, id: key, atTime: at?.nanos ?? "" },
    // As the pass-through asks: the caller's query as sent, its organization_id replaced upstream.
    path: pathname + search,
    ttlSeconds: assetTtlSeconds(services, kind, at?.ms ?? null),
    negativeBody: null,
    toRow: (relayed) => rowOf(kind, relayed),
    documentResponse: (doc) => documentResponse(kind, doc),
    negativeResponse: (_c, doc) =>
      new Response(doc.body, { status: 404, headers: { "content-type": V3_PROBLEM_MEDIA_TYPE } }),
    fetchUpstream: async (path) =>
      asRelayed(
        await relayPlatform(
          platform,
          { method: "GET", target: path, accept: acceptFor(kind) },
          services.config.upstreamTimeoutMs,
        ),
      ),
  });
}

function cachedAssetRoute(
  kind: AssetKind,
  path: string,
  param: string,
  summary: string,
  shape: { query?: z.ZodObject; ok: ReturnType<typeof component> | "file" },
): ApiRoute {
  return defineRoute({
    method: "GET",
    path,
    operation: kind.operation,
    api: "v3",
    price: inBothModes({ credits: CREDIT_COSTS[kind.operation].credits, per: "request" }),
    cache: { kind: "document", ttl: kind === HOST ? "hosts" : "per_index" },
    summary,
    ...shape,
    handler: async (c) => {
      const { platform } = c.get("services");
      // Without a Platform upstream the forwarder gives its 503.
      if (!platform) return forwardPlatform()(c);
      return serveAsset(c, kind, platform, c.req.param(param) ?? "");
    },
  });
}

export const cachedHostRoute = cachedAssetRoute(
  HOST,
  "/v3/global/asset/host/:host_id",
  "host_id",
  "One host, now or at `at_time` (cached; a past point in time never expires)",
  { query: v3AtTimeQuerySchema, ok: component("V3HostResponse", v3Envelope(v3HostAssetSchema)) },
);

export const cachedCertificateRoute = cachedAssetRoute(
  CERTIFICATE,
  "/v3/global/asset/certificate/:certificate_id",
  "certificate_id",
  "One certificate by SHA-256 fingerprint (cached)",
  { ok: component("V3CertificateResponse", v3Envelope(v3CertificateAssetSchema)) },
);

export const cachedCertificatePemRoute = cachedAssetRoute(
  CERTIFICATE_PEM,
  "/v3/global/asset/certificate/:certificate_id/raw",
  "certificate_id",
  "One certificate as PEM (cached)",
  { ok: "file" },
);

export const cachedWebpropertyRoute = cachedAssetRoute(
  WEBPROPERTY,
  "/v3/global/asset/webproperty/:webproperty_id",
  "webproperty_id",
  "One web property (`hostname:port`), now or at `at_time` (cached)",
  {
    query: v3AtTimeQuerySchema,
    ok: component("V3WebpropertyResponse", v3Envelope(v3WebpropertyAssetSchema)),
  },
);
