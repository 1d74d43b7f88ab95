import { reportBodySchema, type ReportResponse } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { chargeQuota } from "../../http/quota";
import { parseInput, readJsonBody } from "../../http/validation";
import { compileSearch } from "../../services/search-engine";
import { V1_INDEX_STORAGE } from "../../services/v1-indexes";
import { v1IndexParam } from "./search";

/** POST /api/v1/report/:index: the breakdown of one field over a query's results. */
export function registerReport(app: Hono<AppEnv>): void {
  app.post("/api/v1/report/:index", chargeQuota("report"), async (c) => {
    const index = v1IndexParam(c);
    const body = parseInput(reportBodySchema, await readJsonBody(c));
    const { registry } = V1_INDEX_STORAGE[index];
    const { services } = c.var;
    const started = performance.now();
    const where = compileSearch(body.query, "v1", registry, services.clock.now());
    const aggregate = await services.dataset.aggregateField(registry, body.field, where, body.buckets, "v1");
    const response: ReportResponse = {
      status: "ok",
      results: aggregate.buckets.map(({ key, count }) => ({ key, doc_count: count })),
      metadata: {
        count: aggregate.documents,
        backend_time: Math.round(performance.now() - started),
        nonnull_count: aggregate.nonnullDocuments,
        other_result_count: aggregate.totalOmitted,
        buckets: aggregate.buckets.length,
        // Exact counts from one GROUP BY.
        error_bound: 0,
        query: body.query,
      },
    };
    return c.json(response);
  });
}
