// SQL query and export jobs through the Platform-only edge (UPSTREAM_API=platform): the edge plans
// each job, reads pages of the origin's /v3 search and writes the result to its R2. Each prints
// rows per second (start request to the last row read back) and credits per 1,000 rows.
import { formatMs } from "../format";
import { emptySample, type LoadSample } from "../load";
import { creditsPerThousandRows, type PlatformJobRun, rowsPerSecond, runPlatformJob } from "../platform-jobs";
import type { BenchContext, Scenario, ScenarioOutcome } from "../scenario";

/** Rows each job asks for: 50 pages of 100 hits (or every host of a smaller dataset). */
export const PLATFORM_JOB_ROWS = 5000;

export function platformJobQuery(rows = PLATFORM_JOB_ROWS): string {
  return `SELECT ip, location.country, autonomous_system.asn FROM ipv4 LIMIT ${rows}`;
}

function sampleOf(runs: readonly PlatformJobRun[]): LoadSample {
  const sample = emptySample();
  for (const run of runs) {
    sample.requests += 1;
    sample.latenciesMs.push(run.elapsedMs);
    sample.elapsedMs += run.elapsedMs;
    if (run.end !== "success") sample.non2xx += 1;
    const key = run.end === "success" ? "200 success" : run.end;
    sample.statuses[key] = (sample.statuses[key] ?? 0) + 1;
  }
  return sample;
}

async function measure(ctx: BenchContext, kind: "query" | "export"): Promise<ScenarioOutcome> {
  const tenant = await ctx.newTenant(`platform-${kind}`);
  const endpoint = { url: ctx.cluster.platformEdgeUrl, authorization: tenant.authorization };
  const sql = platformJobQuery();
  const runs: PlatformJobRun[] = [];
  for (let i = 0; i < ctx.options.sqlRuns; i++)
    runs.push(await runPlatformJob(endpoint, kind, sql, ctx.options.sqlPollMs));
  const failures = runs.filter((r) => r.end !== "success");
  const perSecond = rowsPerSecond(runs);
  const perThousand = creditsPerThousandRows(runs);
  return {
    kind: "ran",
    sample: sampleOf(runs),
    connections: 1,
    target: sql,
    counts: {
      runs: runs.length,
      failed_runs: failures.length,
      rows: runs.reduce((sum, r) => sum + r.rows, 0),
      credits: runs.reduce((sum, r) => sum + r.credits, 0),
    },
    notes: [
      `rows per second: ${perSecond.toFixed(0)}; credits per 1,000 rows: ${perThousand.toFixed(2)} ` +
        `(${runs.length} sequential ${kind} jobs through the Platform-only edge, status polled every ` +
        `${ctx.options.sqlPollMs} ms, start request to the last row read back${kind === "export" ? " (CSV, gzip, downloaded and decompressed)" : ""})`,
      `each run (ms): ${runs.map((r) => formatMs(r.elapsedMs)).join(", ")}`,
      ...failures.map((r) => `failed run: ${r.end}: ${r.errorMessage ?? ""}`),
    ],
  };
}

export const platformSqlJob: Scenario = {
  id: "platform-sql-job",
  title: "SQL query job through a Platform-only edge: rows/s and credits per 1,000 rows",
  run: (ctx) => measure(ctx, "query"),
};

export const platformExportJob: Scenario = {
  id: "platform-export-job",
  title: "Export job (CSV, gzip) through a Platform-only edge: rows/s and credits per 1,000 rows",
  run: (ctx) => measure(ctx, "export"),
};
