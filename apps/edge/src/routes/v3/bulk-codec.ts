import { renderV3Problem } from "@scangate/core";
import type { BulkAnswerEntry, BulkCodec } from "../../cache/bulk-fetch";
import type { Relayed } from "../../upstream/relay";
import { type AssetKind, comparableAddress, HOST } from "./asset-kinds";

// A Platform bulk lookup to the document cache. Its answer is `{"result": [asset, ...]}`: the
// assets found, in the order asked, each once; an id the upstream does not know is left out. The
// cache keeps each asset (without the envelope, so a single lookup's row serves a bulk and back)
// and a negative row for each id left out.

/** The problem a single lookup of an unknown asset answers, kept for ids a bulk left out. */
export function notFoundProblem(kind: AssetKind, key: string): string {
  return JSON.stringify(renderV3Problem("not_found", `${kind.noun} ${key} not found.`).body);
}

/** A body's UTF-8 JSON, or undefined when it is not that. */
export function parseJsonBody(body: Uint8Array | undefined): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `result` of a Platform success body, or undefined when it has none. */
export function resultOf(body: Uint8Array): unknown {
  const parsed = parseJsonBody(body);
  return isObject(parsed) ? parsed.result : undefined;
}

/**
 * Splits a bulk answer by the keys asked: each asset goes to the key its resource names. A key
 * with no asset is unknown (a negative row), unless some asset named no key asked: then which
 * one it stood for cannot be told, and no negative row is kept for this answer.
 */
export function splitPlatformBulk(
  kind: AssetKind,
  keys: readonly string[],
  result: readonly unknown[],
): { entries: Map<string, BulkAnswerEntry>; unattributed: string[] } {
  // Hosts match any spelling of the address.
  const comparable = (key: string) => (kind === HOST ? comparableAddress(key) : key);
  const byComparable = new Map(keys.map((key) => [comparable(key), key]));
  const found = new Map<string, string>();
  const unattributed: string[] = [];
  for (const asset of result) {
    const resource = isObject(asset) && isObject(asset.resource) ? asset.resource : null;
    const resourceKey = resource ? kind.resourceKey(resource) : null;
    const key = resourceKey === null ? undefined : byComparable.get(resourceKey);
    if (key === undefined || found.has(key)) unattributed.push(JSON.stringify(asset));
    else found.set(key, JSON.stringify(asset));
  }
  const entries = new Map<string, BulkAnswerEntry>();
  for (const key of keys) {
    const text = found.get(key);
    entries.set(
      key,
      text !== undefined
        ? { text, unknown: false, present: true }
        : { text: "", row: notFoundProblem(kind, key), unknown: true, present: unattributed.length === 0 },
    );
  }
  return { entries, unattributed };
}

/**
 * The codec of one bulk request: rows of `kind` at `atTime` (its nanosecond key, "" for now),
 * asked for with the request's own `at_time` text. An asset that names no key asked is kept
 * for this request's answer (`unattributed`), never cached.
 */
export function platformBulkCodec(
  kind: AssetKind,
  at: { key: string; text: string | undefined },
  ttlSeconds: number | null,
  unattributed: string[],
): BulkCodec {
  return {
    index: kind.index,
    atTime: at.key,
    ttlSeconds,
    requestBody: (keys) =>
      new TextEncoder().encode(
        JSON.stringify({ [kind.idsField]: keys, ...(at.text === undefined ? {} : { at_time: at.text }) }),
      ),
    readAnswer: (keys, relayed: Relayed) => {
      if (relayed.status !== 200) return null;
      const result = resultOf(relayed.body);
      if (!Array.isArray(result)) return null;
      const split = splitPlatformBulk(kind, keys, result);
      unattributed.push(...split.unattributed);
      return split.entries;
    },
    // A negative row shows nothing: the Platform leaves unknown ids out.
    entryOf: (doc) => (doc.negative ? "" : doc.body),
  };
}

/** The bulk answer: the entries of `keys` in that order, unknown ones left out, then any unattributed. */
export function mergePlatformBulk(
  keys: readonly string[],
  entries: ReadonlyMap<string, string>,
  unattributed: readonly string[],
): string {
  const assets = keys.map((key) => entries.get(key) ?? "").filter((text) => text !== "");
  return `{"result":[${[...assets, ...unattributed].join(",")}]}`;
}
