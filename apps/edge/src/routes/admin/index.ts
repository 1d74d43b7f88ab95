import type { AdminRoute } from "../../pipeline/define-route";
import { purgeCacheRoute } from "./cache";
import { deleteCommentRoute } from "./comments";
import { importLedgersRoute } from "./ledgers";
import { REPORT_ROUTES } from "./reports";
import { TENANT_ROUTES } from "./tenants";

/** Every route of the admin API, in the order the app registers them; /openapi.json lists these. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  ...TENANT_ROUTES,
  purgeCacheRoute,
  deleteCommentRoute,
  ...REPORT_ROUTES,
  importLedgersRoute,
];
