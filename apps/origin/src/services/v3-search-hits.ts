import { assetOf, type V3SearchQueryHit } from "@scangate/core";
import type { Dataset } from "./dataset";
import { projectFields } from "./projection";
import type { CompiledWhere } from "./search-engine";
import { v3Certificate } from "./v3-certificate";
import { presentedCertificates, v3Host } from "./v3-host";
import type { Projection } from "./v3-search";
import { readWebproperties } from "./v3-webproperty";

/**
 * The hits of a search page, projected into the Platform's shapes (`host_v1`, `certificate_v1`,
 * `webproperty_v1`), each read in a few batched rounds whatever the page's size.
 */

export function project<T extends { resource: unknown }>(asset: T, paths: string[] | null): T {
  if (paths === null) return asset;
  return { ...asset, resource: projectFields(asset.resource, paths, false) };
}

/** The alias of the service row a hit's `Projection.services` condition is compiled against. */
export const MATCHED_SERVICE_ALIAS = "m";

/** D1 binds at most this many values in one statement. */
const MAX_BOUND = 100;

/** `ip` → the services (`port/transport`, lowercase) of that host the query holds for. */
type MatchedKeys = Map<string, Set<string>>;

const serviceKey = (port: number | undefined, transport: string | undefined): string =>
  `${port ?? ""}/${(transport ?? "").toLowerCase()}`;

/**
 * The services of the page's hosts that `services` (the query compiled against one service
 * row, `m`: see `CompileOptions.scopeRow`) holds for, in one batch of statements binding at
 * most MAX_BOUND values each.
 */
async function matchedServiceKeys(
  db: D1Database,
  ips: readonly string[],
  services: CompiledWhere,
): Promise<MatchedKeys> {
  const matched: MatchedKeys = new Map(ips.map((ip) => [ip, new Set<string>()]));
  const chunkSize = MAX_BOUND - services.params.length;
  if (ips.length === 0 || chunkSize < 1) return matched;
  const statements = [];
  for (let start = 0; start < ips.length; start += chunkSize) {
    const chunk = ips.slice(start, start + chunkSize);
    statements.push(
      db
        .prepare(
          `select m.ip as ip, m.port as port, m.transport_protocol as transport from host_services m
           join hosts r on r.ip = m.ip where m.ip in (${chunk.map(() => "?").join(", ")}) and (${services.sql})`,
        )
        .bind(...chunk, ...services.params),
    );
  }
  const results = await db.batch<{ ip: string; port: number; transport: string }>(statements);
  for (const row of results.flatMap((result) => result.results))
    matched.get(row.ip)?.add(serviceKey(row.port, row.transport));
  return matched;
}

export async function hostHits(
  db: D1Database,
  dataset: Dataset,
  ips: string[],
  projection: Projection,
): Promise<V3SearchQueryHit[]> {
  // One query for the page's documents, one for the certificates they present and one (a
  // batch) for the services the query matched.
  const found = await dataset.readHosts(ips);
  const documents = ips.map((ip) => found.get(ip) ?? null);
  const [certificates, matchedKeys] = await Promise.all([
    dataset.readCertificates(documents.flatMap((d) => presentedCertificates(d))),
    projection.matchedServices && projection.services
      ? matchedServiceKeys(db, ips, projection.services)
      : Promise.resolve(null),
  ]);
  return documents.flatMap((document, i) => {
    if (document === null) return [];
    const host = v3Host(document, certificates);
    const asset = project(assetOf(host), projection.paths);
    if (!projection.matchedServices || matchedKeys === null) return [{ host_v1: asset }];
    // The Platform narrows a hit to the services the query matched, in the host's order.
    const keys = matchedKeys.get(ips[i] ?? "") ?? new Set<string>();
    const matched = (host.services ?? [])
      .filter((s) => keys.has(serviceKey(s.port, s.transport_protocol)))
      .map((s) => ({ port: s.port, protocol: s.protocol, transport_protocol: s.transport_protocol }));
    return [{ host_v1: { ...asset, matched_services: matched } }];
  });
}

export async function certificateHits(
  dataset: Dataset,
  fingerprints: string[],
  projection: Projection,
): Promise<V3SearchQueryHit[]> {
  const found = await dataset.readCertificates(fingerprints);
  return fingerprints.flatMap((fp) => {
    const document = found.get(fp.toLowerCase());
    if (document === undefined) return [];
    return [{ certificate_v1: project(assetOf(v3Certificate(document)), projection.paths) }];
  });
}

export async function webHits(
  db: D1Database,
  units: readonly { id: string; port?: number }[],
  projection: Projection,
): Promise<V3SearchQueryHit[]> {
  // The page's properties in a few batched reads, not a few queries per property.
  const properties = await readWebproperties(
    db,
    units.map((u) => ({ hostname: u.id.toLowerCase(), port: u.port ?? 0 })),
  );
  return properties.flatMap((property) =>
    property === null ? [] : [{ webproperty_v1: project(assetOf(property), projection.paths) }],
  );
}
