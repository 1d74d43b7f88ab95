import {
  CREDIT_COSTS,
  parseRfc3339Nanos,
  v3CertificateAssetSchema,
  v3CertificateListInputSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3HostListInputSchema,
  v3WebpropertyAssetSchema,
  v3WebpropertyListInputSchema,
} from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import { z } from "zod";
import { component } from "../../openapi/components";
import { serveBulkPerAsset } from "../../pipeline/bulk-billing";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { readRequestBody } from "../../pipeline/exchange";
import { inBothModes } from "../../pipeline/price";
import type { BulkFetchDeps } from "../../cache/bulk-fetch";
import { cacheStatus, wantsRevalidation } from "../../cache/cache-status";
import { freshnessPolicy } from "../../cache/freshness";
import { bulkCacheOutcome, type BulkOutcome, lookupBulk, revalidateBulk } from "../../cache/serve-bulk";
import { type PlatformUpstream, relayPlatform } from "../../upstream/platform";
import { relayedResponse } from "../../upstream/relay";
import { type AssetKind, CERTIFICATE, HOST, WEBPROPERTY } from "./asset-kinds";
import { mergePlatformBulk, platformBulkCodec } from "./bulk-codec";
import { acceptFor, asRelayed, assetTtlSeconds } from "./cached-assets";
import { forwardPlatform } from "./passthrough";

// Platform bulk lookups through the shared document cache: the ids the cache holds are answered
// from it, and ONE upstream call asks for the rest (joining calls under way for some). The answer
// is the upstream's: the assets found, in the order asked, each once; unknown ids left out.
// A body the cache cannot read (not the SDK's model, an id the upstream refuses) is forwarded as
// the pass-through forwards it, for the upstream's own answer.

const BODY_SCHEMAS = {
  host_ids: v3HostListInputSchema,
  certificate_ids: v3CertificateListInputSchema,
  webproperty_ids: v3WebpropertyListInputSchema,
} as const;

interface BulkRequest {
  /** Each asset once, as cache keys, in the order first asked. */
  readonly keys: string[];
  readonly at: { text: string; ms: number; nanos: string } | null;
}

/** The ids and point in time of a bulk body, or null when the cache cannot describe it. */
export function readBulkRequest(
  kind: AssetKind,
  body: Uint8Array | undefined,
  search: string,
): BulkRequest | null {
  const params = new URLSearchParams(search);
  if (![...params.keys()].every((name) => name === "organization_id")) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    return null;
  }
  const input = BODY_SCHEMAS[kind.idsField].safeParse(parsed);
  if (!input.success) return null;
  const ids = (input.data as Record<string, unknown>)[kind.idsField] as string[];
  const keys = ids.map((id) => kind.key(id));
  if (keys.some((key) => key === null)) return null;
  const atText = kind.atTime ? (input.data as { at_time?: string }).at_time : undefined;
  const at = atText === undefined ? null : parseRfc3339Nanos(atText);
  if (atText !== undefined && at === null) return null;
  return {
    keys: [...new Set(keys as string[])],
    at: at === null || atText === undefined ? null : { text: atText, ...at },
  };
}

function respond(
  kind: AssetKind,
  keys: readonly string[],
  unattributed: readonly string[],
  outcome: Exclude<BulkOutcome, { kind: "failed" }>,
): Response {
  return new Response(mergePlatformBulk(keys, outcome.entries, unattributed), {
    status: 200,
    headers: {
      "content-type": kind.mediaType,
      "Cache-Status": cacheStatus(bulkCacheOutcome(outcome)),
      Age: String(outcome.age),
    },
  });
}

async function serveBulk(c: ApiContext, kind: AssetKind, platform: PlatformUpstream): Promise<Response> {
  const services = c.get("services");
  const { pathname, search } = requestTarget(c.req.url);
  const request = readBulkRequest(kind, await readRequestBody(c), search);
  if (!request) return forwardPlatform({ idsField: kind.idsField })(c);
  const unattributed: string[] = [];
  const codec = platformBulkCodec(
    kind,
    { key: request.at?.nanos ?? "", text: request.at?.text },
    assetTtlSeconds(services, kind, request.at?.ms ?? null),
    unattributed,
  );
  const deps: BulkFetchDeps = {
    codec,
    cache: services.cache,
    clock: services.clock,
    flights: services.flights,
    negativeTtlSeconds: services.config.cache.negativeTtlSeconds,
    defer: (work) => c.executionCtx.waitUntil(work),
    postBulk: async (body) =>
      asRelayed(
        await relayPlatform(
          platform,
          {
            method: "POST",
            target: pathname,
            body,
            contentType: "application/json",
            accept: acceptFor(kind),
          },
          services.config.upstreamTimeoutMs,
        ),
      ),
  };
  const lookup = await lookupBulk(
    deps,
    freshnessPolicy(services.config.cache),
    request.keys,
    wantsRevalidation(c.req.raw.headers),
  );
  if (lookup.toRevalidate.length > 0) {
    c.get("account").upstreamCall();
    c.executionCtx.waitUntil(revalidateBulk(deps, lookup.toRevalidate));
  }
  const outcome = await serveBulkPerAsset(c, deps, lookup, () => unattributed.length);
  if (outcome.kind === "failed") {
    if ("error" in outcome.failure) throw outcome.failure.error;
    return relayedResponse(outcome.failure.relayed);
  }
  return respond(kind, request.keys, unattributed, outcome);
}

function cachedBulkRoute(
  kind: AssetKind,
  path: string,
  summary: string,
  shape: { body: ReturnType<typeof component>; ok: ReturnType<typeof component> },
): ApiRoute {
  return defineRoute({
    method: "POST",
    path,
    operation: kind.bulkOperation,
    api: "v3",
    price: inBothModes({ credits: CREDIT_COSTS[kind.bulkOperation].credits, per: "asset" }),
    cache: { kind: "bulk" },
    summary,
    ...shape,
    handler: async (c) => {
      const { platform } = c.get("services");
      // Without a Platform upstream the forwarder gives its 503.
      if (!platform) return forwardPlatform({ idsField: kind.idsField })(c);
      return serveBulk(c, kind, platform);
    },
  });
}

export const cachedHostsRoute = cachedBulkRoute(
  HOST,
  "/v3/global/asset/host",
  "Several hosts (`host_ids`, optional `at_time`): cached ones from the cache, the rest in one upstream call",
  {
    body: component("V3HostListInput", v3HostListInputSchema),
    ok: component("V3HostsResponse", v3Envelope(z.array(v3HostAssetSchema))),
  },
);

export const cachedCertificatesRoute = cachedBulkRoute(
  CERTIFICATE,
  "/v3/global/asset/certificate",
  "Several certificates (`certificate_ids`): cached ones from the cache, the rest in one upstream call",
  {
    body: component("V3CertificateListInput", v3CertificateListInputSchema),
    ok: component("V3CertificatesResponse", v3Envelope(z.array(v3CertificateAssetSchema))),
  },
);

export const cachedWebpropertiesRoute = cachedBulkRoute(
  WEBPROPERTY,
  "/v3/global/asset/webproperty",
  "Several web properties (`webproperty_ids`, optional `at_time`): cached ones from the cache, the rest in one upstream call",
  {
    body: component("V3WebpropertyListInput", v3WebpropertyListInputSchema),
    ok: component("V3WebpropertiesResponse", v3Envelope(z.array(v3WebpropertyAssetSchema))),
  },
);
