import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  indexParamsSchema,
  searchBodySchema,
  searchResponseSchema,
  v1IndexSchema,
  type SearchResponse,
  type V1Index,
} from "@scangate/core";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { parseInput, readJsonBody } from "../../http/validation";
import { defineRoute, jsonBody, jsonResponse, V1_ERRORS } from "../../routing";
import { compileSearch } from "../../services/search-engine";
import { V1_INDEX_STORAGE } from "../../services/v1-indexes";

/** `:index` of v1 search and report; an unknown index is 404 (the spec's Errors section). */
export function v1IndexParam(c: Context<AppEnv>): V1Index {
  const index = v1IndexSchema.safeParse(c.req.param("index"));
  if (!index.success) throw new ApiError("not_found");
  return index.data;
}

/** POST /api/v1/search/{index}: one-indexed pages of 100 with a `fields` projection. */
export const search = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v1/search/{index}",
    request: { params: indexParamsSchema, body: jsonBody(searchBodySchema) },
    responses: { 200: jsonResponse(searchResponseSchema, "One page of matching documents"), ...V1_ERRORS },
  }),
  // One unit per page.
  { operation: "search", cost: 1 },
  async (c) => {
    const index = v1IndexParam(c);
    const body = parseInput(searchBodySchema, await readJsonBody(c));
    const storage = V1_INDEX_STORAGE[index];
    const { services } = c.var;
    const started = performance.now();
    const registry = await services.dataset.registry(index);
    const where = compileSearch(body.query, "v1", registry, new Date(services.clock.now()));
    const page = body.page ?? 1;
    // The official client sends `fields: []` when it wants the defaults.
    const fields = body.fields && body.fields.length > 0 ? body.fields : storage.defaultFields;
    const result = await services.dataset.searchV1(storage, where, page, fields, body.flatten);
    const response: SearchResponse = {
      status: "ok",
      metadata: {
        count: result.count,
        query: body.query,
        backend_time: Math.round(performance.now() - started),
        page,
        pages: result.pages,
      },
      results: result.results,
    };
    return c.json(response);
  },
);

export const searchRoutes = [search];
