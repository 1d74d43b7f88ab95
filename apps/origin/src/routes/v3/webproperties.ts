import {
  ApiError,
  assetOf,
  parseRfc3339Nanos,
  parseWebpropertyId,
  v3AtTimeQuerySchema,
  v3BulkQueryForm,
  v3WebpropertyAssetSchema,
  v3WebpropertyIdSchema,
  v3WebpropertyListInputSchema,
  v3WebpropertyListQuerySchema,
  V3_MEDIA_TYPES,
  wrapV3,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseV3, v3Json, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { readWebproperties, readWebproperty } from "../../services/v3-webproperty";
import { type BulkForm, readBulkInput } from "./bulk-input";
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
 * Several web properties (`webproperty_ids`, optional `at_time`, in `form`), those found in the
 * order asked; unknown ones are left out and cost nothing.
 */
async function answerWebproperties(c: Context<AppEnv>, form: BulkForm): Promise<Response> {
  const input = await readBulkInput(c, form, v3WebpropertyListInputSchema, {
    field: "webproperty_ids",
    valid: (id) => parseWebpropertyId(id) !== null,
    message: "not a web property id hostname:port",
  });
  // Each property once, in the order first asked (`Example.com:443` is `example.com:443`).
  const parsed = input.webproperty_ids.flatMap((text) => parseWebpropertyId(text) ?? []);
  const ids = [...new Map(parsed.map((id) => [`${id.hostname}:${id.port}`, id])).values()];
  const atMs = msOf(input.at_time);
  const found = await readWebproperties(c.env.DB, ids, atMs);
  const assets = found.filter((p) => p !== null).map(assetOf);
  c.set("creditAssets", assets.length);
  return v3Json(c, wrapV3(assets), V3_MEDIA_TYPES.webproperty);
}

const webpropertiesResult = z.array(v3WebpropertyAssetSchema);

/** POST /v3/global/asset/webproperty: several web properties, the ids in the JSON body. */
export const getWebproperties = platformRoute(
  "globalDataGetWebProperties",
  { request: { body: jsonBody(v3WebpropertyListInputSchema) }, result: webpropertiesResult },
  (c) => answerWebproperties(c, "body"),
);

/** GET /v3/global/asset/webproperty?webproperty_ids=a,b: the same, as the SDKs before 0.6 ask. */
export const getWebpropertiesByQuery = platformRoute(
  v3BulkQueryForm("globalDataGetWebProperties"),
  { request: { query: v3WebpropertyListQuerySchema }, result: webpropertiesResult },
  (c) => answerWebproperties(c, "query"),
);

export const v3WebpropertyRoutes = [getWebproperties, getWebpropertiesByQuery, getWebproperty];
