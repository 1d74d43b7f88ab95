import { expect } from "vitest";
import type { z } from "zod";

/** Parses and returns the output, failing with zod's issues when the value is refused. */
export function accepts<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  expect(result.error?.issues).toBeUndefined();
  return result.data as z.output<T>;
}

/** Asserts the value is refused, optionally with an issue at `path`. */
export function rejects(schema: z.ZodType, value: unknown, path?: (string | number)[]): void {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  if (path) expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
}
