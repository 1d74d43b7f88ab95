import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/**
 * After an authenticated tenant request: its account closes with the answer, whatever the
 * answer is (pipeline/account.ts `finish`: RateLimit headers, Cache-Control, the usage event,
 * written in the background).
 */
export function closeAccount(): MiddlewareHandler<AppEnv> {
  return async function closeAccount(c, next) {
    await next();
    const flush = c.get("account").finish(c.res);
    if (flush) c.executionCtx.waitUntil(flush);
  };
}
