import {
  v1ErrorSchema,
  v1RateLimitErrorSchema,
  v1UnauthorizedErrorSchema,
  v2ErrorSchema,
  v2RateLimitErrorSchema,
  v3ProblemSchema,
} from "@scangate/core";
import { z } from "zod";

/** A core wire schema under the name /openapi.json gives it (a `$ref` target). */
export interface Component {
  readonly name: string;
  readonly schema: z.ZodType;
}

export function component(name: string, schema: z.ZodType): Component {
  return { name, schema };
}

/** The error bodies every route may answer with (core's error table, one schema per body). */
export const ERROR_COMPONENTS = {
  v1: component("V1Error", v1ErrorSchema),
  v1Unauthorized: component("V1Unauthorized", v1UnauthorizedErrorSchema),
  v1RateLimited: component("V1RateLimited", v1RateLimitErrorSchema),
  v2: component("V2Error", v2ErrorSchema),
  v2RateLimited: component("V2RateLimited", v2RateLimitErrorSchema),
  v3: component("V3Problem", v3ProblemSchema),
} as const;

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends or receives. */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const converted: Record<string, unknown> = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  delete converted.$schema;
  return converted;
}
