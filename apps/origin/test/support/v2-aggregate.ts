import { hostsAggregateResultSchema, v2Envelope } from "@scangate/core";
import { expect } from "vitest";
import { getJson } from "./requests";

const envelope = v2Envelope(hostsAggregateResultSchema);

/** GET /api/v2/hosts/aggregate with these query parameters: a 200, its result parsed with core's schema. */
export async function v2Aggregate(values: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString();
  const { res, body } = await getJson(`/api/v2/hosts/aggregate?${query}`);
  expect(res.status).toBe(200);
  return envelope.parse(body).result;
}
