import { type BulkUnknownCertificate, bulkUnknownCertificateSchema } from "@scangate/core";
import type { Relayed } from "../upstream/relay";
import type { BulkCodec } from "./bulk-fetch";

/** What the edge answers for a certificate nobody knows, when it must write the entry itself. */
export const UNKNOWN_CERTIFICATE_ENTRY: BulkUnknownCertificate = {
  error: "Unknown certificate",
  error_type: "unknown",
  status: "error",
};

/** Whether a bulk entry is the "unknown certificate" answer (cached negatively). */
export function isUnknownEntry(entry: unknown): boolean {
  return bulkUnknownCertificateSchema.safeParse(entry).success;
}

/** Fingerprints as cache keys: lower case, each once, in first-seen order. */
export function uniqueFingerprints(requested: readonly string[]): string[] {
  return [...new Set(requested.map((fp) => fp.toLowerCase()))];
}

const utf8 = new TextEncoder();
const UNKNOWN_ENTRY_BYTES = utf8.encode(JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY));

/**
 * The bulk answer, as bytes: one key per requested fingerprint, spelled and ordered as requested
 * (a repeated spelling appears once), each mapped to its entry's JSON text from `entries` (keyed
 * by lower-case fingerprint). Entries are spliced as they are, so documents keep their bytes;
 * `bytesOf` gives an entry's UTF-8 bytes (the cache keeps those of the rows it holds, so a cached
 * answer copies them instead of building and encoding one long string on every request).
 */
export function mergeBulk(
  requested: readonly string[],
  entries: ReadonlyMap<string, string>,
  bytesOf: (fingerprint: string, entry: string) => Uint8Array = (_, entry) => utf8.encode(entry),
): Uint8Array {
  const pieces: Uint8Array[] = [];
  let length = 2;
  for (const spelling of new Set(requested)) {
    const fingerprint = spelling.toLowerCase();
    const entry = entries.get(fingerprint);
    const key = utf8.encode(`${pieces.length === 0 ? "" : ","}${JSON.stringify(spelling)}:`);
    const value = entry === undefined ? UNKNOWN_ENTRY_BYTES : bytesOf(fingerprint, entry);
    pieces.push(key, value);
    length += key.length + value.length;
  }
  const out = new Uint8Array(length);
  out[0] = 0x7b; // {
  let at = 1;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  out[at] = 0x7d; // }
  return out;
}

/**
 * Splits an upstream bulk answer (keyed as we asked: lower case) into entry texts, marking the
 * unknown ones. A fingerprint the upstream left out counts as unknown but is not cached.
 */
export function splitBulkAnswer(
  asked: readonly string[],
  answer: Record<string, unknown>,
): Map<string, { text: string; unknown: boolean; present: boolean }> {
  const split = new Map<string, { text: string; unknown: boolean; present: boolean }>();
  for (const fp of asked) {
    const entry = answer[fp];
    if (entry === undefined) {
      split.set(fp, { text: JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY), unknown: true, present: false });
    } else {
      split.set(fp, { text: JSON.stringify(entry), unknown: isUnknownEntry(entry), present: true });
    }
  }
  return split;
}

/**
 * The legacy certificates bulk (POST /v1/bulk/certificates) to the cache: current rows of the
 * `certificates` index, keyed by lower-case fingerprint, the answer an object keyed as asked.
 */
export function certificatesBulkCodec(ttlSeconds: number): BulkCodec {
  return {
    index: "certificates",
    atTime: "",
    ttlSeconds,
    requestBody: (fingerprints) => new TextEncoder().encode(JSON.stringify({ fingerprints })),
    readAnswer: (fingerprints, relayed: Relayed) => {
      const answer = relayed.json;
      if (relayed.status !== 200 || typeof answer !== "object" || answer === null || Array.isArray(answer)) {
        return null;
      }
      return splitBulkAnswer(fingerprints, answer as Record<string, unknown>);
    },
    entryOf: (doc) => doc.body,
  };
}
