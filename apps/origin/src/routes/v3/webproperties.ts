import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  assetOf,
  parseRfc3339Nanos,
  parseWebpropertyId,
  v3AtTimeQuerySchema,
  v3Envelope,
  v3WebpropertyAssetSchema,
  v3WebpropertyIdSchema,
  v3WebpropertyListInputSchema,
  V3_MEDIA_TYPES,
  wrapV3,
} from "@scangate/core";
import { z } from "zod";
import { withCredits } from "../../http/credits";
import { parseV3, requireIds, v3Body, v3Json, v3Query } from "../../http/v3-inputs";
import { defineRoute, jsonBody } from "../../routing";
import { readWebproperties, readWebproperty } from "../../services/v3-webproperty";
import { V3_ERRORS, v3Response } from "./responses";

const webpropertyIdParam = z.object({ webproperty_id: v3WebpropertyIdSchema });
const msOf = (text: string | undefined) => (text === undefined ? undefined : parseRfc3339Nanos(text)?.ms);

/** GET /v3/global/asset/webproperty/{webproperty_id}: a web property (`hostname:port`). */
export const getWebproperty = defineRoute(
  createRoute({
    method: "get",
    path: "/v3/global/asset/webproperty/{webproperty_id}",
    request: { params: webpropertyIdParam, query: v3AtTimeQuerySchema },
    responses: {
      200: v3Response(v3Envelope(v3WebpropertyAssetSchema), V3_MEDIA_TYPES.webproperty, "The web property"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_webproperty", cost: null },
  withCredits("v3_webproperty", async (c) => {
    const { webproperty_id } = parseV3("path", webpropertyIdParam, {
      webproperty_id: c.req.param("webproperty_id"),
    });
    const { at_time } = v3Query(c, v3AtTimeQuerySchema);
    const id = parseWebpropertyId(webproperty_id);
    const property = id ? await readWebproperty(c.env.DB, id, msOf(at_time)) : null;
    if (!property) throw new ApiError("not_found", `Web property ${webproperty_id} not found.`);
    return v3Json(c, wrapV3(assetOf(property)), V3_MEDIA_TYPES.webproperty);
  }),
);

/**
 * POST /v3/global/asset/webproperty: several web properties (`webproperty_ids`), those found in
 * the order asked; unknown ones are left out and cost nothing.
 */
export const getWebproperties = defineRoute(
  createRoute({
    method: "post",
    path: "/v3/global/asset/webproperty",
    request: { body: jsonBody(v3WebpropertyListInputSchema) },
    responses: {
      200: v3Response(
        v3Envelope(z.array(v3WebpropertyAssetSchema)),
        V3_MEDIA_TYPES.webproperty,
        "The web properties found",
      ),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_webproperties", cost: null },
  withCredits("v3_webproperties", async (c) => {
    const input = await v3Body(c, v3WebpropertyListInputSchema);
    requireIds(
      "webproperty_ids",
      input.webproperty_ids,
      (id) => parseWebpropertyId(id) !== null,
      "not a web property id hostname:port",
    );
    // Each property once, in the order first asked (`Example.com:443` is `example.com:443`).
    const parsed = input.webproperty_ids.flatMap((text) => parseWebpropertyId(text) ?? []);
    const ids = [...new Map(parsed.map((id) => [`${id.hostname}:${id.port}`, id])).values()];
    const atMs = msOf(input.at_time);
    const found = await readWebproperties(c.env.DB, ids, atMs);
    const assets = found.filter((p) => p !== null).map(assetOf);
    c.set("creditAssets", assets.length);
    return v3Json(c, wrapV3(assets), V3_MEDIA_TYPES.webproperty);
  }),
);

export const v3WebpropertyRoutes = [getWebproperties, getWebproperty];
