import type { ApiRoute } from "../../pipeline/define-route";
import { accountRoute } from "./account";
import { certificateCommentRoutes, hostCommentRoutes } from "./comments";
import { bulkRoute } from "./bulk";
import { rawFileRoute, rawResultRoute, rawSeriesListRoute, rawSeriesRoute } from "./data";
import {
  exportDownloadRoute,
  exportStartRoute,
  exportStatusRoute,
  queryResultsRoute,
  queryStartRoute,
  queryStatusRoute,
} from "./jobs";
import { seriesDetailsRoute, seriesListRoute } from "./query-definitions";
import { HOST_ROUTES } from "./hosts";
import { reportRoute, searchRoute } from "./search";
import {
  certificateTagRoutes,
  hostTagRoutes,
  tagCertificatesRoute,
  tagCreateRoute,
  tagDeleteRoute,
  tagHostsRoute,
  tagsListRoute,
  tagUpdateRoute,
  tagViewRoute,
} from "./tags";
import { certificateViewRoute, viewRoute } from "./view";

/**
 * Every route the edge serves under /api, in the order the app registers them (a fixed path
 * before the parameter route it narrows). The price table, /openapi.json, the dashboards'
 * cached operations and the tests' route list all derive from this list (pipeline/catalog.ts).
 */
export const API_ROUTES: readonly ApiRoute[] = [
  accountRoute,
  certificateViewRoute,
  viewRoute,
  bulkRoute,
  queryStartRoute,
  queryStatusRoute,
  queryResultsRoute,
  exportStartRoute,
  exportStatusRoute,
  exportDownloadRoute,
  seriesListRoute,
  seriesDetailsRoute,
  rawSeriesListRoute,
  rawSeriesRoute,
  rawResultRoute,
  rawFileRoute,
  searchRoute,
  reportRoute,
  ...HOST_ROUTES,
  // The team's tags and comments: answered here, never forwarded.
  tagsListRoute,
  tagCreateRoute,
  tagViewRoute,
  tagUpdateRoute,
  tagDeleteRoute,
  tagHostsRoute,
  tagCertificatesRoute,
  ...hostTagRoutes,
  ...certificateTagRoutes,
  ...hostCommentRoutes,
  ...certificateCommentRoutes,
];
