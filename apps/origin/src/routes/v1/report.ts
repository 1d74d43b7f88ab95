import { createRoute } from "@hono/zod-openapi";
import {
  indexParamsSchema,
  reportBodySchema,
  reportResponseSchema,
  type ReportResponse,
} from "@scangate/core";
import { parseInput, readJsonBody } from "../../http/validation";
import { defineRoute, jsonBody, jsonResponse, V1_ERRORS } from "../../routing";
import { compileSearch } from "../../services/search-engine";
import { v1IndexParam } from "./search";

/** POST /api/v1/report/{index}: the breakdown of one field over a query's results. */
export const report = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v1/report/{index}",
    request: { params: indexParamsSchema, body: jsonBody(reportBodySchema) },
    responses: { 200: jsonResponse(reportResponseSchema, "The field's buckets"), ...V1_ERRORS },
  }),
  { operation: "report", cost: 1 },
  async (c) => {
    const index = v1IndexParam(c);
    const body = parseInput(reportBodySchema, await readJsonBody(c));
    const { services } = c.var;
    const registry = await services.dataset.registry(index);
    const started = performance.now();
    const where = compileSearch(body.query, "v1", registry, new Date(services.clock.now()));
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
  },
);

export const reportRoutes = [report];
