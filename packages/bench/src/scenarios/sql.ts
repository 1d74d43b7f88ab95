// SQL query jobs at the origin (`POST /api/v1/query`, polled to its end): how long two ordinary
// queries take from start to success, and whether the worst queries the planner accepts slow the
// origin's other routes while they run. Written against an origin URL and an account, so the
// local-system run (src/local-system.ts) measures the same thing against `pnpm start`.
import type { D1Database } from "../cluster";
import { quantile } from "../load";
import type { BenchContext, ExtraRow, Scenario, ScenarioOutcome } from "../scenario";
import {
  compareProbes,
  endedAsExpected,
  firstPageRows,
  JOB_GRACE_MS,
  JOB_LIMIT_MS,
  jobSample,
  probeLoop,
  runQueryJob,
  type JobRun,
  type SqlEndpoint,
  type WorstExpectation,
} from "../sql-jobs";
import { formatMs } from "../format";
import { readable, searchPath } from "./queries";

export interface SqlSettings {
  /** Measured runs of each latency query (sequential). */
  readonly runs: number;
  /** Pause after each status answer before the next status request. */
  readonly pollMs: number;
  /** Seconds the contention probes run idle before the worst queries start. */
  readonly idleSeconds: number;
}

/** What the SQL scenarios need to know about the dataset, asked of the origin itself. */
export interface SqlDataset {
  /** The latest daily ipv4 table, `ipv4.YYYYMMDD`. */
  readonly table: string;
  /** The most common country code (the contention probes' search). */
  readonly countryCode: string;
  /** An ip of a host in that table. */
  readonly ip: string;
}

async function getJson(endpoint: SqlEndpoint, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${endpoint.originUrl}${path}`, {
    headers: { authorization: endpoint.authorization },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The latest published ipv4 table (query_definitions lists them oldest first). */
export async function latestIpv4Table(endpoint: SqlEndpoint): Promise<string> {
  const body = await getJson(endpoint, "/api/v1/query_definitions/ipv4");
  const tables = Array.isArray(body.tables) ? body.tables.map(String) : [];
  const latest = [...tables].sort().at(-1);
  if (!latest) throw new Error("the origin lists no ipv4 tables: were the snapshot tables built?");
  return latest.includes(".") ? latest : `ipv4.${latest}`;
}

/** Table, most common country and a host's ip, from the origin's own answers. */
export async function sqlDataset(endpoint: SqlEndpoint, countryCode?: string): Promise<SqlDataset> {
  const table = await latestIpv4Table(endpoint);
  let code = countryCode;
  if (code === undefined) {
    const agg = await getJson(
      endpoint,
      `/api/v2/hosts/aggregate?${new URLSearchParams({ field: "location.country_code", num_buckets: "1" })}`,
    );
    const buckets = (agg.result as { buckets?: { key: string }[] } | undefined)?.buckets ?? [];
    code = buckets[0]?.key ?? "US";
  }
  const search = await getJson(endpoint, searchPath(code).replace("per_page=50", "per_page=1"));
  const hits = (search.result as { hits?: { ip?: string }[] } | undefined)?.hits ?? [];
  const ip = hits[0]?.ip;
  if (!ip) throw new Error(`no host found for country ${code}`);
  return { table, countryCode: code, ip };
}

export function groupByCountryQuery(table: string): string {
  return `SELECT location.country, COUNT(*) FROM ${table} GROUP BY location.country`;
}

export function ipLookupQuery(table: string, ip: string): string {
  return `SELECT ip, location.country, services.port FROM ${table} WHERE ip = '${ip}'`;
}

/** One low-cardinality key joined n times (apps/origin/test/sql-faults.test.ts): about (hosts per continent)^n rows. */
function chain(n: number, select: string, where = ""): string {
  const aliases = Array.from({ length: n }, (_, i) => `t${i}`);
  const joins = aliases
    .slice(1)
    .map(
      (alias, i) =>
        `JOIN ipv4 ${alias} ON ${aliases[i] ?? "t0"}.location.continent = ${alias}.location.continent`,
    )
    .join(" ");
  return `SELECT ${select} FROM ipv4 t0 ${joins}${where ? ` WHERE ${where}` : ""}`;
}

/** Thirty `.{0,999}`: about 60,000 instructions of RE2 program, refused before it is compiled. */
const HUGE_PATTERN = `(?is)${".{0,999}".repeat(30)}#`;
/** The largest such pattern the origin accepts (SQL_LIMITS.maxRegexProgram is 3,000 instructions). */
const LARGEST_PATTERN = "(?is).{0,999}.{0,400}#";
/** An empty pattern matches between every two characters: each ip grows by 16 times `characters`. */
const inflated = (column: string, characters: number) =>
  `REGEXP_REPLACE(${column}, r'', '${"x".repeat(characters)}')`;

/**
 * The worst queries (from the origin's fault suite), run back to back: the ones the planner
 * accepts run to success or error, the ones whose cost is known too large at the start must be
 * refused with a 400. The last five are those of an abuse test: patterns over response bodies
 * and banners, rows inflated by a replacement, a sort of 5,000 inflated rows.
 */
export const WORST_QUERIES: readonly {
  readonly name: string;
  readonly sql: string;
  readonly expected: WorstExpectation;
}[] = [
  { name: "3-way join on location.continent", sql: chain(3, "COUNT(*)"), expected: "runs" },
  { name: "GROUP_CONCAT over a 3-way join", sql: chain(3, "GROUP_CONCAT(t2.ip)"), expected: "runs" },
  {
    name: "pathological LIKE over a 3-way join",
    sql: chain(3, "COUNT(*)", "CONCAT(t0.ip, t1.ip, t2.ip) LIKE '%1%1%1%1%1%1%1%1%1%1%2'"),
    expected: "runs",
  },
  {
    name: "flattened repeated field sorted without LIMIT over a 2-way join",
    sql: `${chain(2, "t0.ip, t1.services.banner", "t1.services.port > 0")} ORDER BY 2`,
    expected: "runs",
  },
  {
    name: "30 x .{0,999} over response bodies",
    sql: `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${HUGE_PATTERN}')`,
    expected: "refused",
  },
  {
    name: "30 x .{0,999} over response bodies or banners",
    sql: `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${HUGE_PATTERN}') OR REGEXP_MATCH(services.banner, r'${HUGE_PATTERN}')`,
    expected: "refused",
  },
  {
    name: "largest accepted pattern over response bodies or banners",
    sql: `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${LARGEST_PATTERN}') OR REGEXP_MATCH(services.banner, r'${LARGEST_PATTERN}')`,
    expected: "runs",
  },
  {
    name: "every ip inflated by REGEXP_REPLACE(ip, r'', 2,000 characters)",
    sql: `SELECT ${inflated("ip", 2_000)} FROM ipv4`,
    expected: "runs",
  },
  {
    name: "5,000 rows of 22,000 characters sorted",
    sql: `SELECT ${inflated("ip", 1_400)} AS x FROM ipv4 ORDER BY x DESC LIMIT 5000`,
    expected: "runs",
  },
];

/** Seconds of unmeasured probes before the idle ones. */
const WARM_UP_SECONDS = 2;

/** How long the bench waits for any job before calling it unfinished: well past limit + grace. */
const GIVE_UP_MS = JOB_LIMIT_MS + JOB_GRACE_MS + 30_000;

/** `runs` sequential runs of one query, start to success; one unmeasured run first checks its rows. */
export async function queryLatency(
  endpoint: SqlEndpoint,
  query: string,
  settings: SqlSettings,
  expectRows: (rows: unknown[]) => string,
  /** Filled with the measured runs (for a caller that looks further into them). */
  runs: JobRun[] = [],
): Promise<ScenarioOutcome> {
  const checked = expectRows(await firstPageRows(endpoint, query));
  for (let i = 0; i < settings.runs; i++)
    runs.push(await runQueryJob(endpoint, query, settings.pollMs, GIVE_UP_MS));
  const failures = runs.filter((r) => r.end !== "success");
  return {
    kind: "ran",
    sample: jobSample(runs, (r) => r.end !== "success"),
    connections: 1,
    target: query,
    counts: { runs: runs.length, failed_runs: failures.length },
    notes: [
      `${runs.length} sequential jobs, status polled every ${settings.pollMs} ms, start request to success answer (nothing subtracted); ` +
        `one unmeasured job first (${checked})`,
      `each run (ms): ${runs.map((r) => formatMs(r.elapsedMs)).join(", ")}`,
      ...failures.map(
        (r) => `failed run: ${r.end} after ${formatMs(r.elapsedMs)} ms: ${r.errorMessage ?? ""}`,
      ),
    ],
  };
}

export const CONTENTION_PROBES = ["search", "account"] as const;

/** Ids of the contention scenario's probe rows. */
export function probeRowId(probe: (typeof CONTENTION_PROBES)[number], phase: "idle" | "loaded"): string {
  return `sql-contention-${probe}-${phase}`;
}

/**
 * Origin search and account, each probed on one connection of its own: after 2 s of unmeasured
 * warm-up, `idleSeconds` with nothing else running, then while the worst queries run back to
 * back. The scenario's own row is the worst jobs (one "request" per job, its elapsed time the
 * latency); a job that did not end as success or error within its limit + 5 s is a failure.
 */
export async function contention(
  endpoint: SqlEndpoint,
  dataset: SqlDataset,
  settings: SqlSettings,
): Promise<ScenarioOutcome> {
  const paths = { search: searchPath(dataset.countryCode), account: "/api/v1/account" };
  const probeFor = async (seconds: number) => {
    const until = performance.now() + seconds * 1000;
    return Promise.all(
      CONTENTION_PROBES.map((p) => probeLoop(endpoint, paths[p], () => performance.now() < until)),
    );
  };
  // Unmeasured: the first answers of a route pay for compiling its code and warming its caches.
  await probeFor(WARM_UP_SECONDS);
  const idleRuns = await probeFor(settings.idleSeconds);
  let loading = true;
  const loadedProbes = Promise.all(
    CONTENTION_PROBES.map((p) => probeLoop(endpoint, paths[p], () => loading)),
  );
  const jobs: JobRun[] = [];
  // Polled less often than the latency scenarios: the probes are the traffic under test here.
  const jobPollMs = 250;
  try {
    for (const worst of WORST_QUERIES)
      jobs.push(await runQueryJob(endpoint, worst.sql, jobPollMs, GIVE_UP_MS));
  } finally {
    loading = false;
  }
  const loadedRuns = await loadedProbes;
  const idle = idleRuns.map((r) => r.sample);
  const loaded = loadedRuns.map((r) => r.sample);
  const failures = CONTENTION_PROBES.flatMap((probe, i) => [
    ...(idleRuns[i]?.failures ?? []).map((f) => `${probe} probe failed while idle: ${f}`),
    ...(loadedRuns[i]?.failures ?? []).map((f) => `${probe} probe failed under the jobs: ${f}`),
  ]);
  const extra: ExtraRow[] = CONTENTION_PROBES.flatMap((probe, i) => {
    const target = `GET ${readable(paths[probe])}`;
    return [
      {
        id: probeRowId(probe, "idle"),
        title: `${probe} probe, idle`,
        target,
        connections: 1,
        sample: idle[i]!,
      },
      {
        id: probeRowId(probe, "loaded"),
        title: `${probe} probe, worst SQL jobs running`,
        target,
        connections: 1,
        sample: loaded[i]!,
      },
    ];
  });
  const comparisons = CONTENTION_PROBES.map((probe, i) => ({
    probe,
    ...compareProbes(idle[i]!, loaded[i]!),
  }));
  const limit = `limit ${JOB_LIMIT_MS / 1000} s + ${JOB_GRACE_MS / 1000} s`;
  const worstOf = new Map(WORST_QUERIES.map((w) => [w.sql, w]));
  const asExpected = (run: JobRun) => endedAsExpected(run, worstOf.get(run.query)?.expected ?? "runs");
  return {
    kind: "ran",
    sample: jobSample(jobs, (r) => !asExpected(r)),
    connections: 1,
    target: `${WORST_QUERIES.length} worst queries back to back; probes: ${Object.values(paths)
      .map((p) => `GET ${readable(p)}`)
      .join(", ")}`,
    counts: {
      jobs: jobs.length,
      jobs_success: jobs.filter((j) => j.end === "success").length,
      jobs_error: jobs.filter((j) => j.end === "error").length,
      jobs_refused: jobs.filter((j) => j.end === "refused").length,
      jobs_not_as_expected: jobs.filter((j) => !asExpected(j)).length,
    },
    notes: [
      ...comparisons.map(
        (c) =>
          `${c.probe} probe: p50 ${formatMs(c.idleP50Ms)} ms idle (${c.idleProbes} probes), ${formatMs(c.loadedP50Ms)} ms loaded ` +
          `(${c.loadedProbes} probes), ratio ${c.ratio.toFixed(2)}, ${c.failed} failed`,
      ),
      ...failures,
      ...jobs.map(
        (j) =>
          `${worstOf.get(j.query)?.name ?? j.query}: ${j.end} after ${formatMs(j.elapsedMs)} ms (${limit}: ${asExpected(j) ? "as expected" : "NOT AS EXPECTED"})` +
          (j.errorMessage ? `: ${j.errorMessage.slice(0, 160)}` : ""),
      ),
    ],
    extra,
  };
}

function endpointOf(ctx: BenchContext): SqlEndpoint {
  return { originUrl: ctx.cluster.originUrl, authorization: ctx.originAuth };
}

export function settingsOf(ctx: BenchContext): SqlSettings {
  return { runs: ctx.options.sqlRuns, pollMs: ctx.options.sqlPollMs, idleSeconds: ctx.options.duration };
}

/** Rows of a GROUP BY country: say how many countries, and refuse an empty answer. */
export function countriesChecked(rows: unknown[]): string {
  if (rows.length === 0) throw new Error("the GROUP BY answered no rows");
  return `${rows.length} countries`;
}

/** Rows of an ip lookup: at least one (a row per port, services.port being repeated). */
export function lookupChecked(rows: unknown[]): string {
  if (rows.length === 0) throw new Error("the ip lookup answered no rows");
  return `${rows.length} row(s)`;
}

/**
 * Where a job's time went, from the origin's own jobs table (the bench can read the origin's D1;
 * the local system's is wrangler's): queued (created to started: the queue's batch wait and
 * delivery) and running (started to completed), p50 of each over `runs`.
 */
export async function jobPhases(db: D1Database, runs: readonly JobRun[]): Promise<string> {
  const ids = runs.flatMap((r) => (r.jobId ? [r.jobId] : []));
  if (ids.length === 0) return "no job ids";
  const { results } = await db
    .prepare(
      `SELECT started_at - created_at AS queued, completed_at - started_at AS running FROM jobs
        WHERE id IN (${ids.map(() => "?").join(",")}) AND started_at IS NOT NULL AND completed_at IS NOT NULL`,
    )
    .bind(...ids)
    .all<{ queued: number; running: number }>();
  const p50 = (values: number[]) =>
    quantile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  return (
    `origin's jobs table, p50 of ${results.length}: queued (created to started) ${formatMs(p50(results.map((r) => r.queued)))} ms, ` +
    `running (started to completed) ${formatMs(p50(results.map((r) => r.running)))} ms`
  );
}

/** queryLatency with the origin's own breakdown of the measured jobs as a note. */
async function withPhases(
  ctx: BenchContext,
  outcome: ScenarioOutcome,
  runs: readonly JobRun[],
): Promise<ScenarioOutcome> {
  if (outcome.kind !== "ran") return outcome;
  return { ...outcome, notes: [...(outcome.notes ?? []), await jobPhases(ctx.cluster.originDb, runs)] };
}

export const sqlGroupByCountry: Scenario = {
  id: "sql-group-by-country",
  title: "SQL job: GROUP BY location.country, start to success",
  async run(ctx) {
    const dataset = await sqlDataset(endpointOf(ctx), ctx.probe.countryCode);
    const runs: JobRun[] = [];
    const outcome = await queryLatency(
      endpointOf(ctx),
      groupByCountryQuery(dataset.table),
      settingsOf(ctx),
      countriesChecked,
      runs,
    );
    return withPhases(ctx, outcome, runs);
  },
};

export const sqlIpLookup: Scenario = {
  id: "sql-ip-lookup",
  title: "SQL job: WHERE ip = one host, start to success",
  async run(ctx) {
    const dataset = await sqlDataset(endpointOf(ctx), ctx.probe.countryCode);
    const runs: JobRun[] = [];
    const outcome = await queryLatency(
      endpointOf(ctx),
      ipLookupQuery(dataset.table, dataset.ip),
      settingsOf(ctx),
      lookupChecked,
      runs,
    );
    return withPhases(ctx, outcome, runs);
  },
};

export const sqlContention: Scenario = {
  id: "sql-contention",
  title: "origin search and account probes, idle and while the worst SQL jobs run",
  async run(ctx) {
    const dataset = await sqlDataset(endpointOf(ctx), ctx.probe.countryCode);
    return contention(endpointOf(ctx), dataset, settingsOf(ctx));
  },
};
