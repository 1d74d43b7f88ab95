import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { V3_BULK_IDS_MAX } from "./limits";

/** Request bodies of the bulk lookups, following the SDK's `Asset*ListInputBody` models. */

const ids = <T extends z.ZodType>(id: T) => z.array(id).min(1).max(V3_BULK_IDS_MAX);

/** A SHA-256 fingerprint, any case (the Platform's `certificate_id`). */
export const v3CertificateIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "expected a SHA-256 certificate fingerprint (64 hex digits)");

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

/** Query of get host / get web property: optional `at_time`. */
export const v3AtTimeQuerySchema = z.object({ at_time: rfc3339Schema.optional() });

/** Query of the host timeline: `start_time` (the later instant) and `end_time` (the earlier), both RFC 3339. */
export const v3HostTimelineQuerySchema = z.object({ start_time: rfc3339Schema, end_time: rfc3339Schema });
