import type { ApiVersion } from "@scangate/core";
import type { Price, RoutePrice, Untranslated } from "./price";

// The legacy routes an edge whose upstream speaks only the Censys Platform API cannot answer:
// no Platform call gives what they return. Each declares so in its price (pipeline/price.ts)
// and answers 501 in its version's error shape, saying why and what to use instead, for nothing.

const WHY = "the upstream speaks only the Censys Platform API";

/** A route's declaration that the Platform cannot answer it: `reason` says why and what to use instead. */
export function untranslated(reason: string): Untranslated {
  return { untranslated: `${WHY}; ${reason}` };
}

/** The 501 of an untranslated route in its version's error shape (v1 `{error_code, error}`, v2 `{code, status, error}`). */
export function notImplementedResponse(version: ApiVersion, message: string): Response {
  const body =
    version === "v1"
      ? { error_code: 501, error: message }
      : { code: 501, status: "Not Implemented", error: message };
  return Response.json(body, { status: 501 });
}

/** A legacy route the Platform cannot answer: `legacy` with a legacy upstream, a 501 saying `reason` with the Platform. */
export function legacyOnly(legacy: Price, reason: string): RoutePrice {
  return { legacy, platform: untranslated(reason) };
}
