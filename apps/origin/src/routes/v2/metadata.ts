import { createRoute } from "@hono/zod-openapi";
import { hostsMetadataResultSchema, v2Envelope, wrapV2 } from "@scangate/core";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";

/** GET /api/v2/metadata/hosts: the service names the hosts index holds. Free, like the public one. */
export const hostsMetadata = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/metadata/hosts",
    responses: {
      200: jsonResponse(v2Envelope(hostsMetadataResultSchema), "What the hosts index holds"),
      ...V2_ERRORS,
    },
  }),
  { operation: "hosts_metadata", cost: 0 },
  async (c) => c.json(wrapV2({ services: await c.var.services.dataset.listServiceNames() })),
);

export const metadataRoutes = [hostsMetadata];
