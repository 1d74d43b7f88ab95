import type { ApiVersion } from "@scangate/core";
import type { TenantRow } from "./db/schema";
import type { Env } from "./env";
import type { EdgeServices } from "./services";
import type { QuotaState } from "./tenants/periods";

/** What one API request did, for the usage rollups; handlers add to it. */
export interface RequestUsage {
  /** The matched route's operation name (api/define-route.ts). */
  operation: string | null;
  cacheHit: boolean;
  upstreamCalls: number;
  quotaSpent: number;
  /** Upstream credits a cache hit made unnecessary (what the upstream would have charged). */
  quotaSaved: number;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** X-Request-Id of this request and its answer (core http/request-id.ts). */
    requestId: string;
    services: EdgeServices;
    /** The API version of the route: decides every error body shape. */
    version: ApiVersion;
    tenant: TenantRow;
    /** The tenant's quota after this request's charge (for the RateLimit headers). */
    quota: QuotaState;
    usage: RequestUsage;
    /** Quota units the matched route costs (api/define-route.ts). */
    cost: number;
  };
};
