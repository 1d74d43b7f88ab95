import { defineApiRoute } from "../../api/define-route";
import { forwardFile, forwardRebasingLinks } from "../../api/forward";
import { rawResultDetailsSchema, rawSeriesDetailsSchema, rawSeriesListSchema } from "@scangate/core";
import { component } from "../../openapi/components";

// Raw data: free. Answers' links to the upstream are re-rooted at the edge (rebaseUpstreamLinks).

export const rawSeriesListRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/data",
  operation: "data",
  version: "v1",
  cost: 0,
  summary: "Raw-data series",
  ok: component("RawSeriesList", rawSeriesListSchema),
  handler: forwardRebasingLinks,
});

export const rawSeriesRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/data/:series",
  operation: "data",
  version: "v1",
  cost: 0,
  summary: "Scans of a raw-data series",
  ok: component("RawSeriesDetails", rawSeriesDetailsSchema),
  handler: forwardRebasingLinks,
});

export const rawResultRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/data/:series/:result",
  operation: "data",
  version: "v1",
  cost: 0,
  summary: "Files of one raw-data scan",
  ok: component("RawResultDetails", rawResultDetailsSchema),
  handler: forwardRebasingLinks,
});

export const rawFileRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/data/:series/:result/files/:label",
  operation: "data_download",
  version: "v1",
  cost: 0,
  summary: "Download one raw-data file (where the upstream serves it under /api)",
  ok: "file",
  handler: forwardFile,
});
