/**
 * The explicit bounds of a job's SQL. The parser enforces the text bounds, so the same text
 * gets the same answer wherever it is checked (the edge checks before it forwards, the origin
 * before it queues); the executor enforces the work bounds while it runs.
 */
export const SQL_LIMITS = {
  /** Characters of query text. */
  maxLength: 20_000,
  /** Nesting of parentheses, subqueries, CASE and unary operators. */
  maxDepth: 64,
  /** Expression nodes in the whole query. */
  maxNodes: 4_000,
  /** Tables (and derived tables) joined in one FROM; UNNEST/FLATTEN do not count. */
  maxJoinedTables: 4,
  /** SELECTs in one query (subqueries and UNION members). */
  maxSelects: 16,
  /** Items of an IN (...) list. */
  maxInList: 1_000,
  /** `%` and `_` wildcards in one LIKE pattern. */
  maxLikeWildcards: 16,
  /** Characters of a regular expression. */
  maxRegexLength: 1_000,
  /** Groups one GROUP BY (or DISTINCT) may hold. */
  maxGroups: 1_000_000,
  /** Values one COUNT(DISTINCT) or set may hold. */
  maxDistinct: 1_000_000,
  /** Rows a join's build side or a sort may hold in memory. */
  maxHeldRows: 1_000_000,
  /** Characters one computed string (STRING_AGG, GROUP_CONCAT, concatenation) may reach. */
  maxStringLength: 1_000_000,
  /** Rows one JOIN may produce. */
  maxJoinRows: 5_000_000,
} as const;
