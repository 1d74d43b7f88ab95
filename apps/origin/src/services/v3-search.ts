import { ApiError, type V3ErrorDetail, type V3SearchQueryHit } from "@scangate/core";
import type { CenqlResource } from "@scangate/search";
import type { CursorPosition } from "./cursor";
import { keysetPage } from "./keyset-page";
import type { Dataset } from "./dataset";
import { countedPage } from "./search-totals";
import type { CompiledWhere } from "./search-engine";
import { certificateHits, hostHits, webHits } from "./v3-search-hits";

export { MATCHED_SERVICE_ALIAS } from "./v3-search-hits";

/**
 * `global/search/query` over the origin's indexes: keyset pages (no OFFSET) of the resource a
 * CenQL query searches, each hit projected into the Platform's shape (`host_v1`,
 * `certificate_v1`, `webproperty_v1`).
 *
 * Web queries match rows of the websites index (one row per domain), but a Platform hit is a
 * web property (`hostname:port`). A matching domain contributes one hit per port the index
 * holds for it, in port order; `total_hits` counts those web properties. Paging walks the
 * (domain, port) pairs, so a page holds exactly `page_size` hits whatever the ports per domain.
 *
 * A query naming several resources (`host.services.threats.name = "Sliver" or web.threats.name
 * = "Sliver"`) is compiled once per resource (`CompiledWhere.others`), as the Platform reads it,
 * and answers hits of each kind: the hosts first, then the certificates, then the web
 * properties, one walk across them (a part's keys are offset by PART_SPAN, so a page token
 * says which part it stopped in); `total_hits` adds the parts' totals.
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
  /** The `fields` asked for, for the hits of the other resources a query spans. */
  fields?: readonly string[];
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
  if (fields === undefined || fields.length === 0) return { paths: null, matchedServices: true, fields };
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
    fields,
  };
}

/** Keys of one part of a spanning query's walk lie in [part × PART_SPAN, (part + 1) × PART_SPAN). */
const PART_SPAN = 2 ** 49;

interface Part {
  resource: CenqlResource;
  where: CompiledWhere;
}

/**
 * The units of one resource matching `where`, in walk order beyond `cursor` (its key local to
 * the part), at most `limit`, and the resource's total.
 */
async function partUnits(
  db: D1Database,
  part: Part,
  cursor: CursorPosition | null,
  backwards: boolean,
  limit: number,
): Promise<{ total: number; units: Unit[] }> {
  const { resource, where } = part;
  const { table, key, id } = TABLES[resource];
  const web = resource === "web";
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
      .bind(...where.params, ...(rowKey === null ? [] : [rowKey]), limit + 1),
  );
  let units = rows.flatMap((row) => unitsOf(resource, row));
  // Rows come in walk order, but a domain's ports ascend: order the units by key that way too.
  units.sort((a, b) => (backwards ? b.key - a.key : a.key - b.key));
  if (cursor) units = units.filter((u) => (backwards ? u.key < cursor.key : u.key > cursor.key));
  return { total, units: units.slice(0, limit) };
}

/** The page's hits, in its order, each read by its resource's reader (a batch per resource). */
async function hitsOf(
  db: D1Database,
  dataset: Dataset,
  page: { part: number; unit: Unit }[],
  parts: readonly Part[],
  projections: readonly Projection[],
): Promise<V3SearchQueryHit[]> {
  const out: V3SearchQueryHit[] = [];
  for (let i = 0; i < page.length; ) {
    const part = page[i]?.part ?? 0;
    const run: Unit[] = [];
    while (i < page.length && page[i]?.part === part) run.push((page[i++] as { unit: Unit }).unit);
    const resource = parts[part]?.resource ?? "host";
    const projection = projections[part] ?? { paths: null, matchedServices: false };
    const ids = run.map((u) => u.id);
    out.push(
      ...(resource === "host"
        ? await hostHits(db, dataset, ids, projection)
        : resource === "cert"
          ? await certificateHits(dataset, ids, projection)
          : await webHits(db, run, projection)),
    );
  }
  return out;
}

/**
 * One page of hits of `resource` matching `where` (and of each resource in `where.others`),
 * after (or before) `cursor`. Like the v2 hosts search: one extra unit is read to learn
 * whether another page follows that way.
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
  const { others = [], ...first } = where;
  const parts: Part[] = [{ resource, where: first }, ...others];
  const projections = parts.map((part, i) =>
    i === 0 ? projection : projectionOf(part.resource, projection.fields),
  );
  const backwards = cursor?.direction === "prev";
  const startPart = cursor
    ? Math.min(parts.length - 1, Math.floor(cursor.key / PART_SPAN))
    : backwards
      ? parts.length - 1
      : 0;
  const order = backwards
    ? parts
        .map((_, i) => i)
        .filter((i) => i <= startPart)
        .reverse()
    : parts.map((_, i) => i).filter((i) => i >= startPart);
  // Units in walk order across the parts, one more than a page to learn whether more follow.
  const walked: { part: number; unit: Unit }[] = [];
  const totals = new Map<number, number>();
  for (const i of order) {
    const part = parts[i] as Part;
    const local = cursor && i === startPart ? { ...cursor, key: cursor.key - i * PART_SPAN } : null;
    const wanted = pageSize + 1 - walked.length;
    const read = await partUnits(db, part, local, backwards, Math.max(wanted, 0));
    totals.set(i, read.total);
    for (const unit of read.units) walked.push({ part: i, unit: { ...unit, key: unit.key + i * PART_SPAN } });
  }
  // The parts the walk did not reach still count toward the total.
  for (let i = 0; i < parts.length; i++) {
    if (!totals.has(i)) totals.set(i, (await partUnits(db, parts[i] as Part, null, false, 0)).total);
  }
  const { page, hasPrev, hasNext } = keysetPage(walked, pageSize, cursor);
  const firstUnit = page[0];
  const lastUnit = page[page.length - 1];
  return {
    total: [...totals.values()].reduce((sum, n) => sum + n, 0),
    hits: await hitsOf(
      db,
      dataset,
      page.map((entry) => ({ ...entry, unit: { ...entry.unit, key: entry.unit.key % PART_SPAN } })),
      parts,
      projections,
    ),
    prev: hasPrev && firstUnit ? { direction: "prev", key: firstUnit.unit.key } : null,
    next: hasNext && lastUnit ? { direction: "next", key: lastUnit.unit.key } : null,
  };
}
