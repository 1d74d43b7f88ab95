import { z } from "zod";

/** v2 success bodies are wrapped so: the official client reads `result`. */
export function v2Envelope<T extends z.ZodType>(result: T) {
  return z.object({ code: z.literal(200), status: z.literal("OK"), result });
}
export type V2Envelope<T> = { code: 200; status: "OK"; result: T };

export function wrapV2<T>(result: T): V2Envelope<T> {
  return { code: 200, status: "OK", result };
}
