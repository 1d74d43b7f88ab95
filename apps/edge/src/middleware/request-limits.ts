import { ApiError } from "@scangate/core";
import { requestLimitProblem } from "@scangate/core/http";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/**
 * The length limits that are ours to set (URL, `q`, `cursor`; core's limits.ts), checked before
 * anything else reads the request: over one is a JSON 400 in the route's version shape, and
 * nothing is counted, charged or stored. The runtime's own limits answer in plain text before
 * this (the README's API notes).
 */
export function requestLimits(): MiddlewareHandler<AppEnv> {
  return async function requestLimits(c, next) {
    const problem = requestLimitProblem(c.req.url);
    if (problem !== undefined) throw new ApiError("bad_request", problem);
    await next();
  };
}
