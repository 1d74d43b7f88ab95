import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  hostViewParamsSchema,
  requireUtf8Query,
  v2Envelope,
  wrapV2,
  type HostDiffResult,
  type HostDiffSide,
  type HostEventsResult,
  diffJson,
  requireHostIp,
  requireInstant,
} from "@scangate/core";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { parseInput } from "../../http/validation";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";
import type { CursorBinding } from "../../services/cursor";
import { hostEvents } from "../../services/host-events";
import { pageByOffset } from "../../services/offset-page";
import { decodeCursor, queryParams } from "../../http/inputs";

interface Instant {
  text: string;
  ms: number;
}

/** The time parameter `name`, checked, or null when absent. */
function instantParam(c: Context<AppEnv>, name: string): Instant | null {
  const text = c.req.query(name);
  return text === undefined ? null : { text, ms: requireInstant(name, text).ms };
}

/** The host document now, or at `at`; a 404 naming both when there is none. */
async function hostAt(c: Context<AppEnv>, ip: string, at: Instant | null): Promise<HostDiffSide> {
  const { dataset } = c.var.services;
  const document = at === null ? await dataset.readHost(ip) : await dataset.readHostAt(ip, at.ms);
  if (document === null) {
    throw new ApiError("not_found", `Host ${ip} not found${at === null ? "" : ` at ${at.text}`}.`);
  }
  return document as HostDiffSide;
}

/**
 * GET /api/v2/hosts/{ip}/diff (`view_host_diff`): host A (`ip` at `at_time`) against host B
 * (`ip_b`, else the same host, at `at_time_b`), each now when its time is absent. `patch` is
 * the JSON Patch that turns A's document into B's.
 */
export const hostDiffView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/hosts/{ip}/diff",
    request: { params: hostViewParamsSchema, query: hostDiffQuerySchema },
    responses: {
      200: jsonResponse(v2Envelope(hostDiffResultSchema), "The two hosts and the patch between them"),
      ...V2_ERRORS,
    },
  }),
  { operation: "host_diff", cost: 1 },
  async (c) => {
    requireUtf8Query(c.req.url);
    const ip = requireHostIp(c.req.param("ip"));
    const ipB = c.req.query("ip_b");
    const otherIp = ipB === undefined ? ip : requireHostIp(ipB);
    const atTime = instantParam(c, "at_time");
    const atTimeB = instantParam(c, "at_time_b");
    const a = await hostAt(c, ip, atTime);
    const b = await hostAt(c, otherIp, atTimeB);
    const result: HostDiffResult = {
      a: { ip: a.ip, last_updated_at: a.last_updated_at },
      b: { ip: b.ip, last_updated_at: b.last_updated_at },
      patch: diffJson(a, b),
    };
    return c.json(wrapV2(result));
  },
);

/**
 * GET /api/v2/experimental/hosts/{ip}/events (`view_host_events`): what changed on the host,
 * event by event, in time order (newest first with `reversed`), between `start_time`
 * (inclusive) and `end_time` (exclusive).
 */
export const hostEventsView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/experimental/hosts/{ip}/events",
    request: { params: hostViewParamsSchema, query: hostEventsQuerySchema },
    responses: {
      200: jsonResponse(v2Envelope(hostEventsResultSchema), "A page of the host's events"),
      ...V2_ERRORS,
    },
  }),
  { operation: "host_events", cost: 1 },
  async (c) => {
    const ip = requireHostIp(c.req.param("ip"));
    const raw = queryParams(c);
    // Times first, with the host view's 422; the other parameters are 400s like the search's.
    const start = typeof raw.start_time === "string" ? requireInstant("start_time", raw.start_time) : null;
    const end = typeof raw.end_time === "string" ? requireInstant("end_time", raw.end_time) : null;
    const params = parseInput(hostEventsQuerySchema, raw);
    const { dataset, cursors } = c.var.services;
    const binding: CursorBinding = {
      q: JSON.stringify(["events", ip, start?.nanos ?? "", end?.nanos ?? "", params.reversed]),
      perPage: params.per_page,
    };
    const parameters = "host, start_time, end_time, reversed or per_page";
    const cursor = params.cursor ? await decodeCursor(c, params.cursor, binding, parameters) : null;
    const [history, current] = await Promise.all([dataset.readHostHistory(ip), dataset.readHost(ip)]);
    if (history.length === 0 && current === null) throw new ApiError("not_found", `Host ${ip} not found.`);
    const nanos = (ms: number) => BigInt(ms) * 1_000_000n;
    const inWindow = (ms: number) =>
      (start === null || nanos(ms) >= BigInt(start.nanos)) && (end === null || nanos(ms) < BigInt(end.nanos));
    const events = hostEvents(history).filter((event) => inWindow(Date.parse(event.timestamp)));
    if (params.reversed) events.reverse();
    const page = pageByOffset(events, params.per_page, cursor);
    const result: HostEventsResult = {
      ip,
      events: page.items,
      links: {
        prev: page.prev ? await cursors.encode(page.prev, binding) : "",
        next: page.next ? await cursors.encode(page.next, binding) : "",
      },
    };
    return c.json(wrapV2(result));
  },
);

export const hostHistoryRoutes = [hostDiffView, hostEventsView];
