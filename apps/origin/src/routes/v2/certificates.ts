import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  certificateHostsParamsSchema,
  certificateHostsQuerySchema,
  certificateHostsResultSchema,
  requireFingerprint,
  v2Envelope,
  wrapV2,
  type CertificateHostsResult,
} from "@scangate/core";
import { parseInput } from "../../http/validation";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";
import type { CursorBinding } from "../../services/cursor";
import { decodeCursor, queryParams } from "../../http/inputs";

/**
 * GET /api/v2/certificates/{sha256}/hosts (`CensysCerts.get_hosts_by_cert`): the hosts whose
 * services present the certificate now, in address order, a keyset page at a time. The path
 * takes any text, so a malformed fingerprint is a 422 (as a malformed host IP is), not a 404.
 */
export const certificateHostsView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/certificates/{sha256}/hosts",
    request: { params: certificateHostsParamsSchema, query: certificateHostsQuerySchema },
    responses: {
      200: jsonResponse(
        v2Envelope(certificateHostsResultSchema),
        "A page of hosts presenting the certificate",
      ),
      ...V2_ERRORS,
    },
  }),
  { operation: "certificate_hosts", cost: 1 },
  async (c) => {
    const fingerprint = requireFingerprint(c.req.param("sha256"));
    const params = parseInput(certificateHostsQuerySchema, queryParams(c));
    const { dataset, cursors } = c.var.services;
    const binding: CursorBinding = { q: `certificate hosts ${fingerprint}`, perPage: params.per_page };
    const cursor = params.cursor
      ? await decodeCursor(c, params.cursor, binding, "certificate or per_page")
      : null;
    const page = await dataset.readCertificateHosts(fingerprint, params.per_page, cursor);
    if (!page.known) throw new ApiError("not_found", `Certificate ${fingerprint} not found.`);
    const result: CertificateHostsResult = {
      fingerprint,
      hosts: page.hosts,
      links: {
        prev: page.prev ? await cursors.encode(page.prev, binding) : "",
        next: page.next ? await cursors.encode(page.next, binding) : "",
      },
    };
    return c.json(wrapV2(result));
  },
);

export const certificateRoutes = [certificateHostsView];
