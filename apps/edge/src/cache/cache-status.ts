/**
 * The `Cache-Status` header (RFC 9211) of the edge's document cache, named `scangate`.
 * `fwd` says why the request went upstream: `uri-miss` (not cached), `stale` (too old),
 * `request` (the caller sent Cache-Control: no-cache), `partial` (a bulk call with some
 * documents cached).
 */
export type CacheForwarded = "uri-miss" | "stale" | "request" | "partial";

export type CacheOutcome =
  | { hit: true; ttl: number | null; detail?: "stale-while-revalidate" | "collapsed" }
  | {
      hit: false;
      fwd: CacheForwarded;
      stored: boolean;
      fwdStatus?: number;
      detail?: "stale-if-error";
    };

export function cacheStatus(outcome: CacheOutcome): string {
  const parts = ["scangate"];
  if (outcome.hit) {
    parts.push("hit");
    if (outcome.ttl !== null) parts.push(`ttl=${outcome.ttl}`);
  } else {
    parts.push(`fwd=${outcome.fwd}`);
    if (outcome.fwdStatus !== undefined) parts.push(`fwd-status=${outcome.fwdStatus}`);
    if (outcome.stored) parts.push("stored");
  }
  if (outcome.detail) parts.push(`detail=${outcome.detail}`);
  return parts.join("; ");
}

/** Whether the caller asked to skip cached copies (`Cache-Control: no-cache`, or `Pragma: no-cache`). */
export function wantsRevalidation(headers: Headers): boolean {
  const cacheControl = headers.get("cache-control") ?? "";
  return (
    /(^|,)\s*(no-cache|no-store|max-age=0)\s*(,|$)/i.test(cacheControl) ||
    /no-cache/i.test(headers.get("pragma") ?? "")
  );
}
