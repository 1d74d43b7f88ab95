import { targetStart } from "./paths";
import { CURSOR_MAX_CHARS, REQUEST_TARGET_MAX_CHARS, SEARCH_QUERY_MAX_CHARS } from "../limits";

/** Query parameters with a length limit of ours, and that limit. */
const PARAMETER_LIMITS: readonly (readonly [name: string, maxChars: number])[] = [
  ["q", SEARCH_QUERY_MAX_CHARS],
  ["cursor", CURSOR_MAX_CHARS],
];
const SHORTEST_PARAMETER_LIMIT = Math.min(...PARAMETER_LIMITS.map(([, max]) => max));

/**
 * Which of our length limits a request URL breaks (its message for a 400), or undefined: the
 * request target (path and query) over REQUEST_TARGET_MAX_CHARS, or a `q` or `cursor` value
 * over its own limit (every value of a repeated one; counted decoded). Cut from the string, and
 * the query parsed only when it is long enough to hold an over-long value: every request asks.
 */
export function requestLimitProblem(url: string): string | undefined {
  const start = targetStart(url);
  const target = start === -1 ? 0 : url.length - start;
  if (target > REQUEST_TARGET_MAX_CHARS) return `request URL exceeds ${REQUEST_TARGET_MAX_CHARS} characters`;
  const query = url.indexOf("?", start);
  if (query === -1 || url.length - query <= SHORTEST_PARAMETER_LIMIT) return undefined;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const [name, maxChars] of PARAMETER_LIMITS) {
    if (params.getAll(name).some((value) => value.length > maxChars))
      return `${name} exceeds ${maxChars} characters`;
  }
  return undefined;
}
