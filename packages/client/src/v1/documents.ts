import {
  BULK_MAX_FINGERPRINTS,
  bulkResponseSchema,
  v1DocumentSchema,
  type BulkResponse,
  type CertificateDocument,
  type Ipv4Document,
  type V1Index,
  type WebsiteDocument,
} from "@scangate/core";
import { mapWithConcurrency } from "../bounded-concurrency";
import { chunk, mergeBulkResponses, uniqueInOrder } from "../bulk-chunks";
import type { Transport, WireSchema } from "../transport";

export interface V1DocumentByIndex {
  ipv4: Ipv4Document;
  websites: WebsiteDocument;
  certificates: CertificateDocument;
}

export interface BulkOptions {
  /** Chunks of 50 in flight at once; default 4. */
  concurrency?: number;
  signal?: AbortSignal;
}

export const DEFAULT_BULK_CONCURRENCY = 4;

/** v1 view and bulk: whole documents by id. */
export function v1Documents(transport: Transport) {
  /** The current document of one host (IPv4), website (domain) or certificate (SHA-256). */
  function view<I extends V1Index>(
    index: I,
    id: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<V1DocumentByIndex[I]> {
    return transport.call({
      method: "GET",
      path: `/api/v1/view/${encodeURIComponent(index)}/${encodeURIComponent(id)}`,
      schema: v1DocumentSchema(index) as WireSchema<V1DocumentByIndex[I]>,
      idempotent: true,
      signal: options.signal,
    });
  }

  /**
   * Certificates by SHA-256 fingerprint, any number of them: sent in chunks of 50 (the
   * service's limit) with bounded concurrency and merged into one object with a key per
   * distinct fingerprint. Unknown ones map to `{status: "error", error_type: "unknown", ...}`.
   */
  async function bulk(fingerprints: Iterable<string>, options: BulkOptions = {}): Promise<BulkResponse> {
    const chunks = chunk(uniqueInOrder(fingerprints), BULK_MAX_FINGERPRINTS);
    const parts = await mapWithConcurrency(
      chunks,
      options.concurrency ?? DEFAULT_BULK_CONCURRENCY,
      (part, _index, signal) =>
        transport.call({
          method: "POST",
          path: "/api/v1/bulk/certificates",
          body: { fingerprints: part },
          schema: bulkResponseSchema,
          idempotent: true,
          signal,
        }),
      options.signal,
    );
    return mergeBulkResponses(parts);
  }

  return { view, bulk };
}
