import { accountSchema, queryJobSchema, queryResultsPageSchema, type QueryResultsPage } from "@scangate/core";
import { expect } from "vitest";
import { askOrigin } from "./origin-data";
import { buildRequest, type Fetch } from "./requests";

// Query jobs seen from outside: what a tenant's calls answer, and what the origin's own legacy
// job system answers for the same SQL (the reference a Platform-only edge must match).

export type Cells = (string | null)[];

/** The rows of every page of a finished query job, as cells. */
export async function resultRows(
  fetch: Fetch,
  auth: string,
  jobId: string,
): Promise<{ rows: Cells[]; pages: QueryResultsPage[] }> {
  const pages: QueryResultsPage[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(buildRequest("GET", `/api/v1/query/${jobId}/${page}`, { auth }));
    if (page > 1 && res.status === 404) break;
    expect(res.status).toBe(200);
    const body = queryResultsPageSchema.parse(await res.json());
    pages.push(body);
    if (page >= body.statistics.pages) break;
  }
  return { rows: pages.flatMap((p) => p.rows.map((r) => r.f.map((c) => c.v))), pages };
}

/** The same SQL run by the origin's own query jobs (its snapshot of the same documents). */
export async function originQueryRows(sql: string): Promise<Cells[]> {
  const started = await askOrigin("POST", "/api/v1/query", { query: sql });
  expect(started.status, sql).toBe(200);
  const { job_id } = queryJobSchema.parse(await started.json());
  for (let tries = 0; ; tries++) {
    const status = queryJobSchema.parse(await (await askOrigin("GET", `/api/v1/query/${job_id}`)).json());
    if (status.status === "error") throw new Error(`origin job failed: ${status.error_message ?? ""}`);
    if (status.status === "success") break;
    if (tries > 300) throw new Error("origin job did not finish");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const rows: Cells[] = [];
  for (let page = 1; ; page++) {
    const body = queryResultsPageSchema.parse(
      await (await askOrigin("GET", `/api/v1/query/${job_id}/${page}`)).json(),
    );
    rows.push(...body.rows.map((r) => r.f.map((c) => c.v)));
    if (page >= body.statistics.pages) return rows;
  }
}

export const sortedRows = (rows: Cells[]) => rows.map((r) => JSON.stringify(r)).sort();

/** The tenant's quota used, as /api/v1/account answers it. */
export async function quotaUsed(fetch: Fetch, auth: string): Promise<number> {
  const res = await fetch(buildRequest("GET", "/api/v1/account", { auth }));
  return accountSchema.parse(await res.json()).quota.used;
}
