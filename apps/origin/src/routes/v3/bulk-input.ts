import { requireUtf8Query, v3BulkInputOfQuery, type V3BulkIdsField } from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseV3, v3Body } from "../../http/v3-inputs";

/**
 * Where a bulk lookup (several hosts, certificates or web properties) reads its input: the POST's
 * JSON body (`{"host_ids": [...]}`, the SDKs since 0.6) or the GET's query (`?host_ids=a,b`, the
 * SDKs before; core v3BulkInputOfQuery). One handler serves both forms.
 */
export type BulkForm = "body" | "query";

/** The ids field of a bulk lookup and what an id of it must be. */
export interface BulkIds {
  readonly field: V3BulkIdsField;
  readonly valid: (id: string) => boolean;
  /** Why an id is refused (`not an IP address`). */
  readonly message: string;
}

/**
 * The input of a bulk lookup in `form`, validated by the body's one schema and then id by id: a
 * failure is the same 400 problem in either form, naming `body.host_ids[1]` or `query.host_ids[1]`.
 */
export async function readBulkInput<S extends z.ZodType>(
  c: Context<AppEnv>,
  form: BulkForm,
  schema: S,
  ids: BulkIds,
): Promise<z.output<S>> {
  let input: z.output<S>;
  if (form === "body") {
    input = await v3Body(c, schema);
  } else {
    requireUtf8Query(c.req.url);
    input = parseV3("query", schema, v3BulkInputOfQuery(new URL(c.req.url).searchParams, ids.field));
  }
  const eachId = z.object({ [ids.field]: z.array(z.string().refine(ids.valid, ids.message)) });
  parseV3(form, eachId, input);
  return input;
}
