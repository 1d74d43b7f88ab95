import type { V3Operation } from "@scangate/core";
import type { Env } from "../env";
import type { Services } from "../infrastructure";
import type { OriginAccount } from "../services/accounts";
import type { UsageRow } from "../services/quota";
import type { PlatformCaller } from "./platform-auth";

/** The Hono environment of every origin route. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** X-Request-Id of this request and its answer (core http/request-id.ts), in error log lines. */
    requestId: string;
    services: Services;
    /** Set by the auth middleware on /api routes. */
    account: OriginAccount;
    /** Set by the quota middleware: the account's counters after this request's charge. */
    usage: UsageRow;
    /** Set by the Platform auth middleware on /v3 routes: the member and its organization. */
    platform: PlatformCaller;
    /** Set by a v3 route that is charged per asset: how many assets it answered with. */
    creditAssets: number;
    /** Set by a v3 route: its Platform operation (core v3/operations.ts), for its error statuses. */
    v3Operation: V3Operation;
    /** Set once a v3 route has charged its credits itself (before writing what it was paid for). */
    v3Charged: boolean;
  };
};
