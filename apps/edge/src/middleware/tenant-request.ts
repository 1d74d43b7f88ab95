import { ApiError } from "@scangate/core";
import { requestLimitProblem, versionOfPath } from "@scangate/core/http";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { runMetered, StatementMeter } from "../db/statement-meter";

/**
 * What every tenant request meets first: its API version (the shape of its errors), then the
 * length limits that are ours to set (URL, `q`, `cursor`; core's limits.ts), checked before
 * anything else reads the request: over one is a JSON 400 in the route's version shape, and
 * nothing is counted, charged or stored. The runtime's own limits answer in plain text before
 * this (the README's API notes). A request that asks (`X-D1-Statements`, where the config
 * allows it) is told the D1 statements and ledger calls it made.
 */
export function tenantRequest(): MiddlewareHandler<AppEnv> {
  // Not async: a request that does not ask for counts hands on `next`'s own promise.
  return function tenantRequest(c, next) {
    c.set("version", versionOfPath(c.req.path));
    const problem = requestLimitProblem(c.req.url);
    if (problem !== undefined) throw new ApiError("bad_request", problem);
    if (!c.get("services").config.statementsHeader || c.req.header("X-D1-Statements") === undefined)
      return next();
    const meter = new StatementMeter();
    return runMetered(meter, next).then(() => {
      c.res.headers.set("X-D1-Statements", String(meter.statements));
      c.res.headers.set("X-Ledger-Calls", String(meter.ledgerCalls));
    });
  };
}
