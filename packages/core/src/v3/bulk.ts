import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { SHA256_HEX } from "../indexes";
import { V3_BULK_IDS_MAX } from "./limits";

/** Request bodies of the bulk lookups, following the SDK's `Asset*ListInputBody` models. */

const ids = <T extends z.ZodType>(id: T) => z.array(id).min(1).max(V3_BULK_IDS_MAX);

/** A SHA-256 fingerprint, any case (the Platform's `certificate_id`). */
export const v3CertificateIdSchema = z
  .string()
  .regex(SHA256_HEX, "expected a SHA-256 certificate fingerprint (64 hex digits)");

/** SDK `AssetHostListInputBody`: `host_ids`, optional `at_time` (RFC 3339). */
export const v3HostListInputSchema = z
  .object({ host_ids: ids(z.string()), at_time: rfc3339Schema.optional() })
  .loose();
export type V3HostListInput = z.infer<typeof v3HostListInputSchema>;

/** SDK `AssetCertificateListInputBody`: `certificate_ids`. */
export const v3CertificateListInputSchema = z.object({ certificate_ids: ids(z.string()) }).loose();
export type V3CertificateListInput = z.infer<typeof v3CertificateListInputSchema>;

/** SDK `AssetWebpropertyListInputBody`: `webproperty_ids` (`hostname:port`), optional `at_time`. */
export const v3WebpropertyListInputSchema = z
  .object({ webproperty_ids: ids(z.string()), at_time: rfc3339Schema.optional() })
  .loose();
export type V3WebpropertyListInput = z.infer<typeof v3WebpropertyListInputSchema>;

/** The list of ids of each bulk lookup's input. */
export type V3BulkIdsField = "host_ids" | "certificate_ids" | "webproperty_ids";

/**
 * A bulk lookup's GET form, as the Platform SDKs before the POST bulks send it (Python 0.5.1,
 * TypeScript before 0.6, Go before 0.20): the ids in the query, comma-separated (OpenAPI form
 * style, not exploded: `host_ids=a,b`), beside `at_time` and `organization_id`. Read into the
 * POST body's shape, so the body's schema validates both forms alike: no `idsField` is a missing
 * list, an empty value an empty one, and a repeated key adds its ids (as curl users write them).
 */
export function v3BulkInputOfQuery(
  params: URLSearchParams,
  idsField: V3BulkIdsField,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of params) {
    if (name !== "organization_id" && name !== idsField && !(name in input)) input[name] = value;
  }
  const values = params.getAll(idsField);
  if (values.length > 0) input[idsField] = values.flatMap((value) => (value === "" ? [] : value.split(",")));
  return input;
}

const idsQuery = (what: string) =>
  z.string().describe(`${what}, comma-separated (\`a,b\`), at most ${V3_BULK_IDS_MAX}`);

/** The GET form's query of several hosts (documentation; read with v3BulkInputOfQuery). */
export const v3HostListQuerySchema = z.object({
  host_ids: idsQuery("Host IP addresses"),
  at_time: rfc3339Schema.optional(),
});

/** The GET form's query of several certificates. */
export const v3CertificateListQuerySchema = z.object({
  certificate_ids: idsQuery("SHA-256 certificate fingerprints"),
});

/** The GET form's query of several web properties (`hostname:port`). */
export const v3WebpropertyListQuerySchema = z.object({
  webproperty_ids: idsQuery("Web property ids (`hostname:port`)"),
  at_time: rfc3339Schema.optional(),
});

/** Query of get host / get web property: optional `at_time`. */
export const v3AtTimeQuerySchema = z.object({ at_time: rfc3339Schema.optional() });

/** Query of the host timeline: `start_time` (the later instant) and `end_time` (the earlier), both RFC 3339. */
export const v3HostTimelineQuerySchema = z.object({ start_time: rfc3339Schema, end_time: rfc3339Schema });
