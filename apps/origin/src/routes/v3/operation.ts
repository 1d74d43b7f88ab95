import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import {
  ApiError,
  creditsFor,
  v3Envelope,
  v3Operation,
  wrapV3,
  type CreditUnits,
  type V3Operation,
} from "@scangate/core";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../http/context";
import { defineRoute, type OriginRoute, type RouteDefinition } from "../../routing";
import { V3_ERRORS, v3Response } from "./responses";

/**
 * A Platform route from its row of core's V3_OPERATIONS: the method, path, success status and
 * media type are the SDK's, written there once; the route adds its request schemas, its result
 * schema and its handler.
 *
 * A handler returns the envelope's `result` (or nothing for an operation the SDK reads no body
 * of) and what the call was made of (assets, count conditions, target) for its price; the route
 * answers with the operation's status and media type, then charges the operation's credits
 * (core v3/credit-costs.ts). A failed answer costs nothing. A handler that writes what it is
 * paid for charges first (`chargeBefore`), so a call the balance cannot pay changes nothing.
 */
export interface PlatformAnswer {
  result?: unknown;
  units?: CreditUnits;
}

export type PlatformHandler = (c: Context<AppEnv>) => Promise<PlatformAnswer | Response>;

export interface PlatformRouteSpec {
  request?: RouteConfig["request"];
  /** The schema of the envelope's `result` (core's wire schema). */
  result?: z.ZodType;
  /** A success that is no JSON envelope (a PEM file), described as it is. */
  success?: { description: string; content: Record<string, { schema: z.ZodType }> };
}

type Method = "get" | "post" | "put" | "patch" | "delete";

/** Takes the operation's credits now; the 422 `insufficient balance` when the balance is short. */
export async function chargeBefore(c: Context<AppEnv>, units: CreditUnits = {}): Promise<void> {
  const operation = c.get("v3Operation");
  const amount = creditsFor(operation.operation, units);
  const { credits, clock } = c.var.services;
  const { account, organization } = c.var.platform;
  const charge = await credits.charge(
    organization,
    account.user_id,
    operation.operation,
    amount,
    clock.now(),
  );
  if (!charge.ok) throw new ApiError("quota_exceeded");
  c.set("v3Charged", true);
}

/** `of`: an SDK function's name (its row of V3_OPERATIONS), or a row itself (a bulk's GET form). */
export function platformRoute(
  of: string | V3Operation,
  spec: PlatformRouteSpec,
  handler: PlatformHandler,
): OriginRoute {
  const operation = typeof of === "string" ? v3Operation(of) : of;
  const success =
    spec.success ??
    (operation.mediaType === null || spec.result === undefined
      ? { description: operation.sdk }
      : v3Response(v3Envelope(spec.result), operation.mediaType, operation.sdk));
  const definition = createRoute({
    method: operation.method.toLowerCase() as Method,
    path: operation.path,
    operationId: operation.operationId,
    request: spec.request,
    responses: { [operation.status]: success, ...V3_ERRORS },
  }) as RouteDefinition;
  return defineRoute(
    definition,
    { operation: operation.operation, cost: null },
    async function platformHandler(c: Context<AppEnv>) {
      c.set("v3Operation", operation);
      const answer = await handler(c);
      const response =
        answer instanceof Response
          ? answer
          : operation.mediaType === null
            ? c.body(null, operation.status)
            : c.body(JSON.stringify(wrapV3(answer.result)), operation.status as 200 | 201 | 202, {
                "Content-Type": operation.mediaType,
              });
      if (response.status >= 400 || c.get("v3Charged")) return response;
      const units = answer instanceof Response ? { assets: c.get("creditAssets") ?? 0 } : answer.units;
      await chargeBefore(c, units);
      return response;
    },
  );
}

/** A path parameter of the route (present by construction of its path). */
export function pathParam(c: Context<AppEnv>, name: string): string {
  return c.req.param(name) ?? "";
}
