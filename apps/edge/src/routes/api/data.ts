import { defineRoute, type ApiRoute } from "../../pipeline/define-route";
import { FREE } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";
import { forwardFile, forwardRebasingLinks } from "../../pipeline/forward";
import { rawResultDetailsSchema, rawSeriesDetailsSchema, rawSeriesListSchema } from "@scangate/core";
import { type Component, component } from "../../openapi/components";

// Raw data: free. Answers' links to the upstream are re-rooted at the edge (rebaseUpstreamLinks).

const RAW_DATA_PRICE = legacyOnly(
  FREE,
  "raw data series and files have no Platform equivalent (use the documents: /api/v2/hosts/{ip}, /api/v1/view/certificates/{sha256})",
);

function rawDataRoute(path: string, summary: string, ok: Component): ApiRoute {
  return defineRoute({
    method: "GET",
    path,
    operation: "data",
    price: RAW_DATA_PRICE,
    summary,
    ok,
    handler: forwardRebasingLinks,
  });
}

export const RAW_DATA_ROUTES: readonly ApiRoute[] = [
  rawDataRoute("/api/v1/data", "Raw-data series", component("RawSeriesList", rawSeriesListSchema)),
  rawDataRoute(
    "/api/v1/data/:series",
    "Scans of a raw-data series",
    component("RawSeriesDetails", rawSeriesDetailsSchema),
  ),
  rawDataRoute(
    "/api/v1/data/:series/:result",
    "Files of one raw-data scan",
    component("RawResultDetails", rawResultDetailsSchema),
  ),
  defineRoute({
    method: "GET",
    path: "/api/v1/data/:series/:result/files/:label",
    operation: "data_download",
    price: RAW_DATA_PRICE,
    summary: "Download one raw-data file (where the upstream serves it under /api)",
    ok: "file",
    handler: forwardFile,
  }),
];
