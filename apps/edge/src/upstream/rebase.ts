/**
 * Points the upstream's own links at the edge: every string value of `json` that starts with
 * the upstream's API base (e.g. `https://search.censys.io/api/v1/data/...`) is re-rooted at
 * the edge's `/api`, so a tenant follows it with its own credential. Other links (presigned
 * storage URLs) are left alone.
 */
export function rebaseUpstreamLinks(json: unknown, upstreamBase: string, edgeBase: string): unknown {
  const from = upstreamBase.replace(/\/+$/, "");
  const to = edgeBase.replace(/\/+$/, "");
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value === from || value.startsWith(`${from}/`) ? to + value.slice(from.length) : value;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(json);
}
