import { ApiError, assetOf, type V3ErrorDetail, type V3SearchQueryHit } from "@scangate/core";
import type { CenqlResource } from "@scangate/search";
import type { CursorPosition } from "./cursor";
import { keysetPage } from "./keyset-page";
import type { Dataset } from "./dataset";
import { projectFields } from "./projection";
import { countedPage } from "./search-totals";
import type { CompiledWhere } from "./search-engine";
import { v3Certificate } from "./v3-certificate";
import { presentedCertificates, v3Host } from "./v3-host";
import { readWebproperties } from "./v3-webproperty";

/**
 * `global/search/query` over the origin's indexes: keyset pages (no OFFSET) of the resource a
 * CenQL query searches, each hit projected into the Platform's shape (`host_v1`,
 * `certificate_v1`, `webproperty_v1`).
 *
 * Web queries match rows of the websites index (one row per domain), but a Platform hit is a
 * web property (`hostname:port`). A matching domain contributes one hit per port the index
 * holds for it, in port order; `total_hits` counts those web properties. Paging walks the
 * (domain, port) pairs, so a page holds exactly `page_size` hits whatever the ports per domain.
 */

type Json = Record<string, unknown>;

export interface V3SearchPage {
  total: number;
  hits: V3SearchQueryHit[];
  prev: CursorPosition | null;
  next: CursorPosition | null;
}

/** A web property's place in the walk: the domain's rowid and the port, in one safe integer. */
const PORT_SPAN = 65536;

interface Table {
  table: string;
  /** The integer column rows are walked by (unique per row). */
  key: string;
  /** The column that names the row for reading its document. */
  id: string;
}

const TABLES: Readonly<Record<CenqlResource, Table>> = {
  host: { table: "hosts", key: "ip_num", id: "ip" },
  cert: { table: "certificates", key: "rowid", id: "sha256" },
  web: { table: "websites", key: "rowid", id: "domain" },
};

interface Row {
  k: number;
  id: string;
  doc?: string;
}

interface Unit {
  key: number;
  id: string;
  port?: number;
}

/** The ports the websites index keeps for a domain (its document's numeric keys), ascending. */
function websitePorts(doc: string | undefined): number[] {
  if (!doc) return [];
  const parsed = JSON.parse(doc) as Json;
  return Object.keys(parsed)
    .filter((key) => /^\d{1,5}$/.test(key) && Number(key) < PORT_SPAN)
    .map(Number)
    .sort((a, b) => a - b);
}

function unitsOf(resource: CenqlResource, row: Row): Unit[] {
  if (resource !== "web") return [{ key: row.k, id: row.id }];
  return websitePorts(row.doc).map((port) => ({ key: row.k * PORT_SPAN + port, id: row.id, port }));
}

/** The fields (`host.ip`, `cert.names`) a hit of `resource` keeps, without the resource prefix. */
export interface Projection {
  paths: string[] | null;
  matchedServices: boolean;
  /**
   * For host hits: the query compiled against one service row (alias `m`, with
   * `CompileOptions.scopeRow`), which narrows each hit's `matched_services`. Without it,
   * hits carry no `matched_services`.
   */
  services?: CompiledWhere;
}

const MATCHED_SERVICE_FIELDS = new Set([
  "host.services.port",
  "host.services.transport_protocol",
  "host.services.protocol",
]);

/**
 * What `fields` keeps of a `resource` hit. Each field names its resource (`host.`, `cert.`,
 * `web.`); fields of another resource do not apply to these hits. A field naming none is a 400.
 * As the SDK documents, `matched_services` is left out when fields are given and omit
 * `host.services.port`, `host.services.transport_protocol` and `host.services.protocol`.
 */
export function projectionOf(resource: CenqlResource, fields: readonly string[] | undefined): Projection {
  if (fields === undefined || fields.length === 0) return { paths: null, matchedServices: true };
  const errors: V3ErrorDetail[] = fields.flatMap((field, i) =>
    /^(host|cert|web)\.[^.]/.test(field.trim())
      ? []
      : [
          {
            location: `body.fields[${i}]`,
            message: "a field names its resource: host., cert. or web.",
            value: field,
          },
        ],
  );
  const first = errors[0];
  if (first) {
    throw new ApiError("bad_request", `validation failed: ${first.location}: ${first.message}`, { errors });
  }
  const prefix = `${resource}.`;
  return {
    paths: fields.flatMap((f) => (f.trim().startsWith(prefix) ? [f.trim().slice(prefix.length)] : [])),
    matchedServices: fields.some((f) => MATCHED_SERVICE_FIELDS.has(f.trim())),
  };
}

function project<T extends { resource: unknown }>(asset: T, paths: string[] | null): T {
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

async function hostHits(
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

async function certificateHits(
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

async function webHits(db: D1Database, units: Unit[], projection: Projection): Promise<V3SearchQueryHit[]> {
  // The page's properties in a few batched reads, not a few queries per property.
  const properties = await readWebproperties(
    db,
    units.map((u) => ({ hostname: u.id.toLowerCase(), port: u.port ?? 0 })),
  );
  return properties.flatMap((property) =>
    property === null ? [] : [{ webproperty_v1: project(assetOf(property), projection.paths) }],
  );
}

/**
 * One page of hits of `resource` matching `where`, after (or before) `cursor`. Like the v2
 * hosts search: one extra unit is read to learn whether another page follows that way.
 */
export async function searchV3Page(
  db: D1Database,
  dataset: Dataset,
  resource: CenqlResource,
  where: CompiledWhere,
  pageSize: number,
  cursor: CursorPosition | null,
  projection: Projection,
): Promise<V3SearchPage> {
  const { table, key, id } = TABLES[resource];
  const web = resource === "web";
  const backwards = cursor?.direction === "prev";
  // Rows are read from the cursor's own row on (inclusive: a domain's remaining ports), then
  // units are cut strictly after the cursor; two rows of slack cover the partly read row.
  const rowKey = cursor ? (web ? Math.floor(cursor.key / PORT_SPAN) : cursor.key) : null;
  const keyClause = rowKey === null ? "" : backwards ? ` and r.${key} <= ?` : ` and r.${key} >= ?`;
  const order = backwards ? "desc" : "asc";
  const filter = `(${where.sql})`;
  const count = web
    ? `select count(*) as n from websites r, json_each(r.doc) j where ${filter} and j.key glob '[0-9]*' and j.key not glob '*[^0-9]*'`
    : `select count(*) as n from ${table} r where ${filter}`;
  const { total, rows } = await countedPage<Row>(
    db,
    { sql: count, params: where.params },
    db
      .prepare(
        `select r.${key} as k, r.${id} as id${web ? ", r.doc as doc" : ""} from ${table} r
         where ${filter}${keyClause} order by r.${key} ${order} limit ?`,
      )
      .bind(...where.params, ...(rowKey === null ? [] : [rowKey]), pageSize + 2),
  );
  let units = rows.flatMap((row) => unitsOf(resource, row));
  // Rows come in walk order, but a domain's ports ascend: order the units by key that way too.
  units.sort((a, b) => (backwards ? b.key - a.key : a.key - b.key));
  if (cursor) units = units.filter((u) => (backwards ? u.key < cursor.key : u.key > cursor.key));
  // As in the v2 hosts search: a token is only issued beside a unit, so its side has units.
  const { page, hasPrev, hasNext } = keysetPage(units, pageSize, cursor);
  const first = page[0];
  const last = page[page.length - 1];

  const projectionHits =
    resource === "host"
      ? await hostHits(
          db,
          dataset,
          page.map((u) => u.id),
          projection,
        )
      : resource === "cert"
        ? await certificateHits(
            dataset,
            page.map((u) => u.id),
            projection,
          )
        : await webHits(db, page, projection);
  return {
    total,
    hits: projectionHits,
    prev: hasPrev && first ? { direction: "prev", key: first.key } : null,
    next: hasNext && last ? { direction: "next", key: last.key } : null,
  };
}
