import { V3_PAGE_SIZE_MAX } from "@scangate/core";
import { printCenql } from "@scangate/search";
import type { Call, Expr, Query, Select } from "../ast";
import { AGGREGATE_FUNCTIONS } from "../aggregates";
import { chainOf, containsAggregate, forEachReference } from "../ast-walk";
import { positionOf, type SqlError, type SqlResult } from "../errors";
import { parseQuery } from "../parser";
import { planQuery, type Plan } from "../plan";
import { parseSnapshotTableName, type SnapshotSeries } from "../series";
import type { FieldDef, ResolvedTable } from "../source";
import { bucketQuery, bucketTable, planBuckets, type CountKind } from "./buckets";
import { platformField, type PlatformField } from "./fields";
import { pushdown, type Pushed } from "./pushdown";
import { platformCatalog, platformDay, type PlatformCatalog, type PlatformSeriesOptions } from "./series";
import {
  countOf,
  fieldResolver,
  oneTableSelect,
  selectedExpr,
  tableRefs,
  type OneTableSelect,
} from "./shape";

/**
 * Plans a job's SQL for a Platform upstream: which search the job makes and how the answer is
 * read from it.
 *
 * - `count`: a `SELECT COUNT(*)` whose whole WHERE pushes down exactly is the search's total:
 *   one call.
 * - `aggregate`: a GROUP BY of one field with counts, whose WHERE pushes down exactly, is the
 *   Platform's aggregate of that field: one call (two or three for a field of the services
 *   record, whose empty groups the engine counts as a NULL group).
 * - `rows`: everything else reads pages of hits and evaluates the query over their rows. It is
 *   bounded by the pushed-down query (at most `maxPages` pages), or, when nothing pushes down,
 *   by a LIMIT that every page serves in full. A query neither bounds is refused: it would be a
 *   scan of the whole series.
 */

export interface PlatformPlanOptions extends PlatformSeriesOptions {
  /** Epoch ms: the day of the one table, and the instant the rows' certificate tags are judged at. */
  now: number;
  /** The most pages of search results the job may read. */
  maxPages: number;
}

/** How the NULL group of an aggregated field is counted (the aggregate has no bucket for it). */
export type NullGroup =
  /** The documents without a value: total minus the buckets (a plain document field). */
  | { kind: "totals" }
  /** None: the WHERE keeps only rows with a value. */
  | { kind: "none" }
  /**
   * A field of the services record: the services without a value (`elements`: the aggregate of
   * a field every service has, when it is not that field) plus the hosts without services
   * (`emptyDocuments`: the total of that search).
   */
  | { kind: "record"; elements: string | null; emptyDocuments: string };

export type PlatformAnswer =
  | { kind: "count" }
  | {
      kind: "aggregate";
      field: FieldDef;
      platform: PlatformField;
      filterByQuery: boolean;
      nullGroup: NullGroup;
      buckets: Plan;
    }
  | { kind: "rows"; maxPages: number; bound: "query" | "limit" };

export interface PlatformPlan {
  /** The engine's plan over the series' rows; its `columns` are the answer's. */
  plan: Plan;
  catalog: PlatformCatalog;
  series: SnapshotSeries;
  /** The CenQL the pushed-down part of WHERE became, or null when none of it could. */
  pushed: string | null;
  /** Whether `pushed` matches exactly the documents the WHERE keeps. */
  exact: boolean;
  /** The query each search or aggregate sends: `pushed`, or one matching every document. */
  query: string;
  answer: PlatformAnswer;
  /** The most Platform calls answering takes. */
  maxCalls: number;
  /** When it was planned (epoch ms): the day of its table, the instant certificate tags are judged at. */
  now: number;
}

const MATCH_ALL: Readonly<Record<SnapshotSeries, string>> = {
  ipv4: "host.ip: *",
  certificates: "cert.fingerprint_sha256: *",
  websites: "web.hostname: *",
};

/** The field every element of the services record has: its count is the record's size. */
const SERVICES_KEY = "services.port";

const failure = (text: string, message: string, at: number | null): { ok: false; error: SqlError } => ({
  ok: false,
  error: { message, position: at === null ? null : positionOf(text, at) },
});

/** A dated table other than today's: the Platform keeps no daily snapshots. */
function datedTableError(query: Query, text: string, day: string): SqlError | null {
  for (const ref of tableRefs(query)) {
    const dated = parseSnapshotTableName(ref.name);
    if (!dated || dated.day >= day) continue;
    return failure(
      text,
      `Table ${ref.name} is a daily snapshot of ${dated.day}; the Platform keeps no daily snapshots, only the latest data: query ${dated.series} (or ${dated.series}.${day})`,
      ref.span.start,
    ).error;
  }
  return null;
}

function references(expr: Expr | null, resolve: (e: Expr) => FieldDef | null, name: string): boolean {
  let found = false;
  if (expr)
    forEachReference(
      expr,
      (ref) => {
        if (resolve(ref)?.name === name) found = true;
      },
      new Set(),
    );
  return found;
}

function readsRecord(expr: Expr | null, resolve: (e: Expr) => FieldDef | null, record: string): boolean {
  let found = false;
  if (expr)
    forEachReference(
      expr,
      (ref) => {
        if (resolve(ref)?.record === record) found = true;
      },
      new Set(),
    );
  return found;
}

interface Context {
  text: string;
  shape: OneTableSelect;
  table: ResolvedTable;
  series: SnapshotSeries;
  resolve: (expr: Expr) => FieldDef | null;
  pushed: Pushed | null;
  query: string;
}

/** A `COUNT(*)` (or COUNT of a field every row has) of the documents the WHERE keeps. */
function isCount(ctx: Context): boolean {
  const { select } = ctx.shape;
  if (ctx.shape.unnest || ctx.series === "websites" || (select.where && !ctx.pushed?.exact)) return false;
  if (select.groupBy.length > 0 || select.having || select.distinct || (select.offset ?? 0) > 0) return false;
  if (select.limit === 0 || select.items.length !== 1) return false;
  const item = select.items[0];
  if (item?.kind !== "expr") return false;
  const count = countOf(item.expr);
  if (!count) return false;
  if (count.star) return true;
  const field = ctx.resolve(count.arg);
  return field?.mode === "REQUIRED" && field.record === undefined;
}

/** A GROUP BY of one field with counts that the Platform's aggregate answers. */
function aggregateAnswer(ctx: Context): PlatformAnswer | null {
  const { select } = ctx.shape;
  if (ctx.shape.unnest || ctx.series === "websites" || select.groupBy.length !== 1) return null;
  if (select.where && !ctx.pushed?.exact) return null;
  const grouped = selectedExpr(select, select.groupBy[0] as Expr);
  if (grouped.kind !== "column") return null;
  const field = ctx.resolve(grouped);
  const platform = field && platformField(ctx.series, field.name);
  // A list inside a service is grouped by the whole list, which no bucket is.
  if (!field || !platform || field.name === "protocols" || (field.record && field.mode === "REPEATED"))
    return null;
  let nullGroup: NullGroup;
  let filterByQuery = false;
  if (field.record === "services") {
    filterByQuery = readsRecord(select.where, ctx.resolve, "services");
    nullGroup = {
      kind: "record",
      elements: field.name === SERVICES_KEY ? null : `host.${SERVICES_KEY}`,
      emptyDocuments: `(${ctx.query}) and not host.services: *`,
    };
  } else if (field.mode === "REPEATED") {
    // Each value is a row of its own: only `field IS NOT NULL` may read it, and keeps no NULL row.
    const conjuncts = select.where ? chainOf(select.where, "AND") : [];
    const notNull = conjuncts.filter(
      (c) =>
        c.kind === "is_null" && c.negated && c.operand.kind === "column" && ctx.resolve(c.operand) === field,
    );
    const others = conjuncts.filter((c) => !notNull.includes(c));
    if (notNull.length === 0 || others.some((c) => references(c, ctx.resolve, field.name))) return null;
    nullGroup = { kind: "none" };
  } else {
    nullGroup = { kind: "totals" };
  }
  const countKind = (count: Call): CountKind | null => {
    const what = countOf(count);
    if (!what) return null;
    if (what.star) return "rows";
    const counted = ctx.resolve(what.arg);
    if (counted === field) return "values";
    return counted?.mode === "REQUIRED" && counted.record === undefined ? "rows" : null;
  };
  const rewritten = bucketQuery(select, countKind);
  if (!rewritten) return null;
  const buckets = planBuckets(rewritten, ctx.text, bucketTable(ctx.table, field));
  if (!buckets.ok) return null;
  return { kind: "aggregate", field, platform, filterByQuery, nullGroup, buckets: buckets.value };
}

/** LIMIT bounds the pages when every row of every page reaches the output, in order. */
function limitPages(select: Select, plan: Plan, pushedExactly: boolean, maxPages: number): number | null {
  if (select.limit === null || select.groupBy.length > 0 || select.having || select.distinct) return null;
  if (select.orderBy.length > 0 || (select.where && !pushedExactly)) return null;
  if (select.items.some((i) => i.kind === "expr" && containsAggregate(i.expr, AGGREGATE_FUNCTIONS)))
    return null;
  if (plan.subqueries.length > 0) return null;
  const pages = Math.max(1, Math.ceil((select.limit + (select.offset ?? 0)) / V3_PAGE_SIZE_MAX));
  return pages <= maxPages ? pages : null;
}

function unbounded(
  text: string,
  series: SnapshotSeries,
  maxPages: number,
  why: string,
): { ok: false; error: SqlError } {
  return failure(
    text,
    `This query would read the whole ${series} series from the Platform, which keeps no tables to scan: ${why}. ` +
      `Narrow it with a WHERE condition the Platform can search (an equality, IN, a range, CONTAINS, a LIKE prefix or a regular expression on a field such as location.country_code, services.port or parsed.names), ` +
      `count or GROUP BY one field, or add a LIMIT of at most ${maxPages * V3_PAGE_SIZE_MAX} rows (${maxPages} pages).`,
    null,
  );
}

export function planPlatformQuery(text: string, options: PlatformPlanOptions): SqlResult<PlatformPlan> {
  const parsed = parseQuery(text);
  if (!parsed.ok) return parsed;
  const catalog = platformCatalog(platformDay(options.now), options);
  const dated = datedTableError(parsed.value, text, catalog.day);
  if (dated) return { ok: false, error: dated };
  const planned = planQuery(parsed.value, text, catalog);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const first = plan.tables[0];
  const series = (first?.series ?? "ipv4") as SnapshotSeries;
  const refs = tableRefs(parsed.value);
  const shape = refs.length === 1 ? oneTableSelect(parsed.value) : null;
  const base = { plan, catalog, series, now: options.now };
  if (!shape || !first) {
    return unbounded(
      text,
      series,
      options.maxPages,
      "it reads its tables in more than one place (a join, a union, a subquery or a derived table), so no search can narrow it",
    );
  }
  const resolveField = fieldResolver(shape, first.schema);
  const resolve = (expr: Expr) => (expr.kind === "column" ? resolveField(expr) : null);
  const pushed = shape.select.where
    ? pushdown(shape.select.where, {
        resolve: (ref) => {
          const def = resolveField(ref);
          return def ? { def, platform: platformField(series, def.name) } : null;
        },
        protocolsField: series === "ipv4" ? "protocols" : null,
      })
    : null;
  const cenql = pushed ? printCenql(pushed.node) : null;
  const query = cenql ?? MATCH_ALL[series];
  const ctx: Context = { text, shape, table: first, series, resolve, pushed, query };
  const common = {
    ...base,
    pushed: cenql,
    exact: shape.select.where === null || pushed?.exact === true,
    query,
  };
  if (isCount(ctx)) return { ok: true, value: { ...common, answer: { kind: "count" }, maxCalls: 1 } };
  const aggregate = aggregateAnswer(ctx);
  if (aggregate?.kind === "aggregate") {
    const calls =
      1 + (aggregate.nullGroup.kind === "record" ? 1 + (aggregate.nullGroup.elements === null ? 0 : 1) : 0);
    return { ok: true, value: { ...common, answer: aggregate, maxCalls: calls } };
  }
  // A website's row needs every page (its ports may come on any), so no LIMIT shortens the read.
  const byLimit =
    shape.unnest || series === "websites"
      ? null
      : limitPages(shape.select, plan, common.exact, options.maxPages);
  if (cenql !== null) {
    const pages = Math.min(byLimit ?? options.maxPages, options.maxPages);
    return {
      ok: true,
      value: { ...common, answer: { kind: "rows", maxPages: pages, bound: "query" }, maxCalls: pages },
    };
  }
  if (byLimit !== null) {
    return {
      ok: true,
      value: { ...common, answer: { kind: "rows", maxPages: byLimit, bound: "limit" }, maxCalls: byLimit },
    };
  }
  const why = shape.select.where
    ? "no condition of its WHERE is one the Platform can search"
    : "it has no WHERE";
  return unbounded(
    text,
    series,
    options.maxPages,
    `${why}, it is not a count or a GROUP BY of one field with counts, and no LIMIT bounds the rows it reads`,
  );
}
