import { REQUEST_ID_HEADER, requestIdOf, targetStart } from "@scangate/core/http";
import { wantsRevalidation } from "../cache/cache-status";
import { freshness, freshnessPolicy } from "../cache/freshness";
import type { CachedDocument } from "../cache/interface";
import type { TenantRow } from "../db/schema";
import { BoundedMemo } from "../http/bounded-memo";
import { passRefusal } from "../middleware/burst-limit";
import { admit, basicCredentialsOf, deferTo } from "../middleware/tenant-auth";
import { finishTenantAnswer } from "../middleware/usage";
import type { EdgeServices } from "../services";
import { type CachedRoute, freshDocumentAnswer } from "./cached-document";

/** How a path a document route answered from the cache is answered again. */
export interface HitRecipe {
  readonly route: CachedRoute;
  /** The route's operation, for usage. */
  readonly operation: string;
  /** Upstream credits the hit saves (CachedRoute.savedCredits). */
  readonly saved: number;
}

/** Paths remembered per isolate (a team's hot documents), each at most 256 characters. */
const REMEMBERED_PATHS = 4096;
const REMEMBERED_PATH_CHARS = 256;

/** The request target of `url` when it has no query string (an empty `?` counts as one). */
function pathWithoutQuery(url: string): string | null {
  const start = targetStart(url);
  return url.indexOf("?", start) === -1 ? url.slice(start) : null;
}

/**
 * Cache hits answered before the router. A team's clients ask for the same documents over and
 * over, and a hit on a document this isolate holds in memory is most of an edge's traffic; the
 * full way (router, the /api middleware chain, the route) cost that hit about as much CPU again
 * as building the answer. A document route that answered a free, fresh hit for a path (GET, no
 * query string) remembers how (`remember`); the next requests for exactly that path are answered
 * here, with the same steps the full way takes and the same answer, when everything about them
 * is the plain case:
 *
 * - Basic credentials this isolate has already checked (`TenantAuthenticator.known`);
 * - no revalidation asked, no D1 statement count asked, hits free;
 * - the document fresh in this isolate's memory (not negative, not due for revalidation);
 * - the tenant's burst limit allowing it (a refusal goes the full way, which answers the 429
 *   from the refusal the lane had, without asking the limiter again: `passRefusal`).
 *
 * Anything else goes the full way, so every error, every unusual request and every first request
 * keep one implementation; nothing is stored or charged before the lane knows it answers.
 */
export class HitLane {
  private readonly recipes = new BoundedMemo<HitRecipe>(REMEMBERED_PATHS, REMEMBERED_PATH_CHARS);

  /** Remembers how the API path of `url` was answered (a URL with a query string is not kept). */
  remember(url: string, recipe: HitRecipe): void {
    const path = pathWithoutQuery(url);
    if (path?.startsWith("/api/")) this.recipes.remember(path, recipe);
  }

  /** The answer to `request`, or null (synchronously, or once the burst limit refused): go the full way. */
  answer(request: Request, services: EdgeServices, ctx: ExecutionContext): Promise<Response | null> | null {
    if (request.method !== "GET") return null;
    const path = pathWithoutQuery(request.url);
    const recipe = path === null ? undefined : this.recipes.get(path);
    if (!recipe) return null;
    const { config } = services;
    const { headers } = request;
    if (config.cache.hitsCharged || wantsRevalidation(headers)) return null;
    if (config.statementsHeader && headers.has("X-D1-Statements")) return null;
    const doc = services.cache.peek(recipe.route.key);
    if (!doc || doc.negative) return null;
    if (freshness(doc, services.clock.now(), freshnessPolicy(config.cache)) !== "fresh") return null;
    const credentials = basicCredentialsOf(request);
    const tenant =
      credentials && services.auth.known(credentials.username, credentials.password, deferTo(ctx));
    if (!tenant) return null;
    return this.served(request, services, ctx, { recipe, doc, tenant });
  }

  private async served(
    request: Request,
    services: EdgeServices,
    ctx: ExecutionContext,
    hit: { recipe: HitRecipe; doc: CachedDocument; tenant: TenantRow },
  ): Promise<Response | null> {
    const { recipe, doc, tenant } = hit;
    const decision = await services.rateLimiter.check(tenant.id, tenant.tier);
    if (!decision.allowed) {
      passRefusal(request, decision);
      return null;
    }
    const quota = admit(services, tenant, deferTo(ctx));
    const response = freshDocumentAnswer(recipe.route, doc, services.clock.now(), () =>
      services.cache.bodyBytes(recipe.route.key, doc.body),
    );
    const usage = {
      operation: recipe.operation,
      cacheHit: true,
      upstreamCalls: 0,
      quotaSpent: 0,
      quotaSaved: recipe.saved,
    };
    finishTenantAnswer(services, response, { tenant, quota, usage }, (work) => ctx.waitUntil(work));
    response.headers.set(REQUEST_ID_HEADER, requestIdOf(request.headers.get(REQUEST_ID_HEADER) ?? undefined));
    return response;
  }
}
