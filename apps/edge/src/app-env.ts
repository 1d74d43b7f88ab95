import type { ApiVersion } from "@scangate/core";
import type { Env } from "./env";
import type { RequestAccount } from "./pipeline/account";
import type { EdgeServices } from "./services";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** X-Request-Id of this request and its answer (core http/request-id.ts). */
    requestId: string;
    services: EdgeServices;
    /** The API version of the route: decides every error body shape. */
    version: ApiVersion;
    /** The tenant request's account (pipeline/account.ts): opened at auth, closed with the answer. */
    account: RequestAccount;
  };
};
