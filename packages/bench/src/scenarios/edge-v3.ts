// The Platform API (/v3) through the edge's document cache: a certificate lookup and a bulk of
// certificates, both cached, with a tenant's Platform bearer token (issued through the admin
// API). Each runs in paired slices against the bare worker sending the origin's own /v3 answer.
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { platformAuthorization, v3BulkBody } from "../admin-client";
import { bulkFingerprints, type Scenario, SkipScenario } from "../scenario";
import { cachedLoad } from "./edge-cache";
import { bareV3Asset, bareV3Bulk } from "./reference";

/** The /v3 lookup path of a certificate. */
export function v3CertificatePath(fingerprint: string): string {
  return `/v3/global/asset/certificate/${fingerprint}`;
}

/** The /v3 bulk certificate lookup. */
export const V3_BULK_PATH = "/v3/global/asset/certificate";

export const edgeV3AssetHit: Scenario = {
  id: "edge-v3-asset-hit",
  title: "edge /v3 certificate lookup, cache hit (Platform token)",
  async run(ctx) {
    const path = v3CertificatePath(ctx.probe.viewFingerprint);
    const loaded = await cachedLoad(ctx, "v3-asset-hit", [{ method: "GET", path }], {
      authorization: (tenant) => platformAuthorization(ctx.cluster.edgeUrl, ctx.adminToken, tenant.id),
      pairedWith: { id: "edge-v3-asset-hit", reference: bareV3Asset },
    });
    return {
      kind: "ran",
      ...loaded,
      connections: ctx.options.connections,
      target: `GET ${path}`,
      notes: [`${loaded.warmups} warm-up requests before the load (counted in the edge's usage)`],
    };
  },
};

export const edgeV3BulkHit: Scenario = {
  id: "edge-v3-bulk-hit",
  title: `edge /v3 bulk of ${BULK_MAX_FINGERPRINTS} certificates, all cached (Platform token)`,
  async run(ctx) {
    const fingerprints = bulkFingerprints(ctx.probe);
    if (fingerprints.length < BULK_MAX_FINGERPRINTS)
      throw new SkipScenario(`the dataset has fewer than ${BULK_MAX_FINGERPRINTS} certificates`);
    const request = { method: "POST" as const, path: V3_BULK_PATH, body: v3BulkBody(fingerprints) };
    const loaded = await cachedLoad(ctx, "v3-bulk-hit", [request], {
      authorization: (tenant) => platformAuthorization(ctx.cluster.edgeUrl, ctx.adminToken, tenant.id),
      pairedWith: { id: "edge-v3-bulk-hit", reference: bareV3Bulk },
    });
    return {
      kind: "ran",
      ...loaded,
      connections: ctx.options.connections,
      target: `POST ${V3_BULK_PATH} (${fingerprints.length} certificate_ids)`,
      notes: [`${loaded.warmups} warm-up requests before the load (counted in the edge's usage)`],
    };
  },
};
