import type { OriginRoute } from "../routing";
import { healthRoutes } from "./health";
import { accountRoutes } from "./v1/account";
import { bulkRoutes } from "./v1/bulk";
import { rawDataRoutes } from "./v1/data";
import { exportJobRoutes } from "./v1/export";
import { queryJobRoutes } from "./v1/query";
import { queryDefinitionRoutes } from "./v1/query-definitions";
import { reportRoutes } from "./v1/report";
import { searchRoutes } from "./v1/search";
import { viewRoutes } from "./v1/view";
import { annotationCommentRoutes } from "./v2/comments";
import { certificateRoutes } from "./v2/certificates";
import { hostHistoryRoutes } from "./v2/host-history";
import { hostNamesRoutes } from "./v2/host-names";
import { hostRoutes } from "./v2/hosts";
import { metadataRoutes } from "./v2/metadata";
import { tagRoutes } from "./v2/tags";
import { v3Routes } from "./v3";

/**
 * Every route the origin serves, in the order the app registers them. The 405 answers (from
 * the registered routes) and the tests' route list come from here; a new route is one file
 * under routes/ and one line here.
 */
export const ORIGIN_ROUTES: readonly OriginRoute[] = [
  ...healthRoutes,
  // v1 (synchronous)
  ...searchRoutes,
  ...viewRoutes,
  ...reportRoutes,
  ...bulkRoutes,
  ...accountRoutes,
  // v2 hosts
  ...hostRoutes,
  ...hostNamesRoutes,
  ...hostHistoryRoutes,
  ...certificateRoutes,
  ...metadataRoutes,
  // v2 tags and comments (the calling account's own)
  ...tagRoutes,
  ...annotationCommentRoutes,
  // v1 (asynchronous jobs, query definitions, raw data)
  ...queryJobRoutes,
  ...queryDefinitionRoutes,
  ...exportJobRoutes,
  ...rawDataRoutes,
  // v3: the Censys Platform API (bearer token, organization, credits)
  ...v3Routes,
];
