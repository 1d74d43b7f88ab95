import {
  ApiError,
  assetOf,
  parseRfc3339Nanos,
  parseWebpropertyId,
  v3AtTimeQuerySchema,
  v3WebpropertyAssetSchema,
  v3WebpropertyIdSchema,
  v3WebpropertyListInputSchema,
  V3_MEDIA_TYPES,
  wrapV3,
} from "@scangate/core";
import { z } from "zod";
import { parseV3, requireIds, v3Body, v3Json, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { readWebproperties, readWebproperty } from "../../services/v3-webproperty";
import { platformRoute } from "./operation";

const webpropertyIdParam = z.object({ webproperty_id: v3WebpropertyIdSchema });
const msOf = (text: string | undefined) => (text === undefined ? undefined : parseRfc3339Nanos(text)?.ms);

/** GET /v3/global/asset/webproperty/{webproperty_id}: a web property (`hostname:port`). */
export const getWebproperty = platformRoute(
  "globalDataGetWebProperty",
  { request: { params: webpropertyIdParam, query: v3AtTimeQuerySchema }, result: v3WebpropertyAssetSchema },
  async (c) => {
    const { webproperty_id } = parseV3("path", webpropertyIdParam, {
      webproperty_id: c.req.param("webproperty_id"),
    });
    const { at_time } = v3Query(c, v3AtTimeQuerySchema);
    const id = parseWebpropertyId(webproperty_id);
    const property = id ? await readWebproperty(c.env.DB, id, msOf(at_time)) : null;
    if (!property) throw new ApiError("not_found", `Web property ${webproperty_id} not found.`);
    return v3Json(c, wrapV3(assetOf(property)), V3_MEDIA_TYPES.webproperty);
  },
);

/**
 * POST /v3/global/asset/webproperty: several web properties (`webproperty_ids`), those found in
 * the order asked; unknown ones are left out and cost nothing.
 */
export const getWebproperties = platformRoute(
  "globalDataGetWebProperties",
  { request: { body: jsonBody(v3WebpropertyListInputSchema) }, result: z.array(v3WebpropertyAssetSchema) },
  async (c) => {
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
  },
);

export const v3WebpropertyRoutes = [getWebproperties, getWebproperty];
