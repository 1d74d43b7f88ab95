import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  hostNamesQuerySchema,
  hostNamesResultSchema,
  hostViewParamsSchema,
  v2Envelope,
  wrapV2,
  type HostNamesResult,
  requireHostIp,
} from "@scangate/core";
import { parseInput } from "../../http/validation";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";
import type { CursorBinding } from "../../services/cursor";
import { hostNames, presentedCertificates } from "../../services/host-names";
import { pageByOffset } from "../../services/offset-page";
import { decodeCursor, queryParams } from "../../http/inputs";

/**
 * GET /api/v2/hosts/{ip}/names (`view_host_names`): the names the host answers for now, from
 * its certificates and its HTTP services, a page at a time.
 */
export const hostNamesView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/hosts/{ip}/names",
    request: { params: hostViewParamsSchema, query: hostNamesQuerySchema },
    responses: {
      200: jsonResponse(v2Envelope(hostNamesResultSchema), "A page of the host's names"),
      ...V2_ERRORS,
    },
  }),
  { operation: "host_names", cost: 1 },
  async (c) => {
    const ip = requireHostIp(c.req.param("ip"));
    const params = parseInput(hostNamesQuerySchema, queryParams(c));
    const { dataset, cursors } = c.var.services;
    const binding: CursorBinding = { q: `names ${ip}`, perPage: params.per_page };
    const cursor = params.cursor ? await decodeCursor(c, params.cursor, binding, "host or per_page") : null;
    const doc = await dataset.readHost(ip);
    if (doc === null) throw new ApiError("not_found", `Host ${ip} not found.`);
    const names = hostNames(doc, await dataset.readCertificateNames(presentedCertificates(doc)));
    const page = pageByOffset(names, params.per_page, cursor);
    const result: HostNamesResult = {
      names: page.items,
      links: {
        prev: page.prev ? await cursors.encode(page.prev, binding) : "",
        next: page.next ? await cursors.encode(page.next, binding) : "",
      },
    };
    return c.json(wrapV2(result));
  },
);

export const hostNamesRoutes = [hostNamesView];
