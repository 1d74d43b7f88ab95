import { type BulkUnknownCertificate, bulkUnknownCertificateSchema } from "@scangate/core";
import type { Relayed } from "../upstream/relay";
import type { BulkAnswerEntry, BulkCodec } from "./bulk-fetch";

/** What the edge answers for a certificate nobody knows, when it must write the entry itself. */
export const UNKNOWN_CERTIFICATE_ENTRY: BulkUnknownCertificate = {
  error: "Unknown certificate",
  error_type: "unknown",
  status: "error",
};

const utf8 = new TextEncoder();
const UNKNOWN_ENTRY_BYTES = utf8.encode(JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY));

const OPEN = utf8.encode("{");
const CLOSE = utf8.encode("}");

/**
 * The bulk answer, as a Blob of byte pieces: one key per requested fingerprint, spelled and
 * ordered as requested (a repeated spelling appears once), each mapped to its entry's JSON text
 * from `entries` (keyed by lower-case fingerprint; one without, a string that is not a
 * fingerprint too, is the unknown certificate). Entries are spliced as they are, so documents
 * keep their bytes; `bytesOf` gives an entry's UTF-8 bytes (the cache keeps those of the rows it
 * holds, so a cached answer is the runtime copying them into one buffer, instead of one long
 * string built and encoded on every request).
 */
export function mergeBulk(
  requested: readonly string[],
  entries: ReadonlyMap<string, string>,
  bytesOf: (fingerprint: string, entry: string) => Uint8Array = (_, entry) => utf8.encode(entry),
): Blob {
  const members: Array<{ key: string; value: Uint8Array }> = [];
  for (const spelling of new Set(requested)) {
    const fingerprint = spelling.toLowerCase();
    const entry = entries.get(fingerprint);
    members.push({
      key: `${members.length === 0 ? "" : ","}${JSON.stringify(spelling)}:`,
      value: entry === undefined ? UNKNOWN_ENTRY_BYTES : bytesOf(fingerprint, entry),
    });
  }
  // The keys encoded in one call, then cut apart: hex fingerprints are ASCII, a byte a
  // character (any other spelling is encoded key by key).
  const joined = members.map(({ key }) => key).join("");
  const keyBytes = utf8.encode(joined);
  const ascii = keyBytes.length === joined.length;
  const pieces: Uint8Array[] = [OPEN];
  let at = 0;
  for (const { key, value } of members) {
    pieces.push(ascii ? keyBytes.subarray(at, at + key.length) : utf8.encode(key), value);
    at += key.length;
  }
  pieces.push(CLOSE);
  return new Blob(pieces);
}

/**
 * Splits an upstream bulk answer (keyed as we asked: lower case) into entry texts, marking the
 * unknown ones. A fingerprint the upstream left out counts as unknown but is not cached.
 */
export function splitBulkAnswer(
  asked: readonly string[],
  answer: Record<string, unknown>,
): Map<string, BulkAnswerEntry> {
  const split = new Map<string, BulkAnswerEntry>();
  for (const fp of asked) {
    const entry = answer[fp];
    if (entry === undefined) {
      split.set(fp, { text: JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY), unknown: true, present: false });
    } else {
      // The "unknown certificate" answer is cached negatively.
      const unknown = bulkUnknownCertificateSchema.safeParse(entry).success;
      split.set(fp, { text: JSON.stringify(entry), unknown, present: true });
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
    requestBody: (fingerprints) => utf8.encode(JSON.stringify({ fingerprints })),
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
