/**
 * Whether a request is charged its route's cost, from how it was served. Cache hits (a fresh
 * or negative row, or an answer another request's upstream call made) are free unless the
 * edge is configured to charge them; a request the upstream answered with success is charged;
 * one the upstream failed, or that a stale row answered because the upstream failed, is not
 * (the upstream spent nothing it would bill for).
 */
export type Served =
  | { readonly kind: "fresh" | "negative" | "collapsed" }
  | { readonly kind: "miss"; readonly status: number }
  | { readonly kind: "stale" };

export function isCharged(served: Served, hitsCharged: boolean): boolean {
  switch (served.kind) {
    case "fresh":
    case "negative":
    case "collapsed":
      return hitsCharged;
    case "miss":
      return served.status >= 200 && served.status < 300;
    case "stale":
      return false;
  }
}
