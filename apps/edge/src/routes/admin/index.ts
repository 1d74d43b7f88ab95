import type { AdminRoute } from "../../pipeline/define-route";
import { purgeCacheRoute } from "./cache";
import { deleteCommentRoute } from "./comments";
import { importLedgersRoute } from "./ledgers";
import { auditListRoute, usageListRoute } from "./reports";
import {
  createTenantRoute,
  deleteTenantRoute,
  issuePlatformTokenRoute,
  listTenantsRoute,
  revokePlatformTokenRoute,
  rotateSecretRoute,
  showPlatformTokenRoute,
  showTenantRoute,
  updateTenantRoute,
} from "./tenants";

/** Every route of the admin API, in the order the app registers them; /openapi.json lists these. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  createTenantRoute,
  listTenantsRoute,
  showTenantRoute,
  updateTenantRoute,
  rotateSecretRoute,
  deleteTenantRoute,
  issuePlatformTokenRoute,
  showPlatformTokenRoute,
  revokePlatformTokenRoute,
  purgeCacheRoute,
  deleteCommentRoute,
  auditListRoute,
  usageListRoute,
  importLedgersRoute,
];
