import { defineRoute } from "../../pipeline/define-route";
import { FREE } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";
import { forwardFile, forwardRebasingLinks } from "../../pipeline/forward";
import { rawResultDetailsSchema, rawSeriesDetailsSchema, rawSeriesListSchema } from "@scangate/core";
import { component } from "../../openapi/components";

// Raw data: free. Answers' links to the upstream are re-rooted at the edge (rebaseUpstreamLinks).

const RAW_DATA_PRICE = legacyOnly(
  FREE,
  "raw data series and files have no Platform equivalent (use the documents: /api/v2/hosts/{ip}, /api/v1/view/certificates/{sha256})",
);

export const rawSeriesListRoute = defineRoute({
  method: "GET",
  path: "/api/v1/data",
  operation: "data",
  api: "v1",
  price: RAW_DATA_PRICE,
  summary: "Raw-data series",
  ok: component("RawSeriesList", rawSeriesListSchema),
  handler: forwardRebasingLinks,
});

export const rawSeriesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/data/:series",
  operation: "data",
  api: "v1",
  price: RAW_DATA_PRICE,
  summary: "Scans of a raw-data series",
  ok: component("RawSeriesDetails", rawSeriesDetailsSchema),
  handler: forwardRebasingLinks,
});

export const rawResultRoute = defineRoute({
  method: "GET",
  path: "/api/v1/data/:series/:result",
  operation: "data",
  api: "v1",
  price: RAW_DATA_PRICE,
  summary: "Files of one raw-data scan",
  ok: component("RawResultDetails", rawResultDetailsSchema),
  handler: forwardRebasingLinks,
});

export const rawFileRoute = defineRoute({
  method: "GET",
  path: "/api/v1/data/:series/:result/files/:label",
  operation: "data_download",
  api: "v1",
  price: RAW_DATA_PRICE,
  summary: "Download one raw-data file (where the upstream serves it under /api)",
  ok: "file",
  handler: forwardFile,
});
