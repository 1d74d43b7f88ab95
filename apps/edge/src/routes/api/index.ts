import type { ApiRoute } from "../../pipeline/define-route";
import { accountRoute } from "./account";
import { bulkRoute } from "./bulk";
import { COMMENT_ROUTES } from "./comments";
import { RAW_DATA_ROUTES } from "./data";
import { HOST_ROUTES } from "./hosts";
import { JOB_ROUTES } from "./jobs";
import { SERIES_ROUTES } from "./query-definitions";
import { SEARCH_ROUTES } from "./search";
import { TAG_ROUTES } from "./tags";
import { VIEW_ROUTES } from "./view";

/**
 * Every route the edge serves under /api, in the order the app registers them (a fixed path
 * before the parameter route it narrows). The price table, /openapi.json, the dashboards'
 * cached operations and the tests' route list all derive from this list (pipeline/catalog.ts).
 */
export const API_ROUTES: readonly ApiRoute[] = [
  accountRoute,
  ...VIEW_ROUTES,
  bulkRoute,
  ...JOB_ROUTES,
  ...SERIES_ROUTES,
  ...RAW_DATA_ROUTES,
  ...SEARCH_ROUTES,
  ...HOST_ROUTES,
  // The team's tags and comments: answered here, never forwarded.
  ...TAG_ROUTES,
  ...COMMENT_ROUTES,
];
