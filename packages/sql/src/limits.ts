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
  /**
   * Instructions a regular expression (or LIKE pattern) may compile to, estimated from its text
   * before it is compiled. A counted repetition multiplies its operand (`.{0,999}` is about
   * 2,000), and compiling and matching both grow with it; BigQuery's RE2 has such a bound too.
   */
  maxRegexProgram: 3_000,
  /** Groups one GROUP BY (or DISTINCT) may hold. */
  maxGroups: 1_000_000,
  /** Values one COUNT(DISTINCT) or set may hold. */
  maxDistinct: 1_000_000,
  /**
   * Bytes of rows a run may hold at once: rows waiting for ORDER BY, groups and their
   * aggregates, DISTINCT keys, a join's right side, an IN subquery's values (estimated: a
   * character is a byte, a value 8 to 16 bytes besides). A Worker has 128 MB in all.
   */
  maxHeldBytes: 32 * 1024 * 1024,
  /** Characters one computed string (STRING_AGG, GROUP_CONCAT, concatenation) may reach. */
  maxStringLength: 1_000_000,
  /** Rows one JOIN may produce. */
  maxJoinRows: 5_000_000,
  /**
   * Steps of work one row may take (run-budget.ts: a character read or written is a step, a
   * regular expression over a value is its length times its instructions). A row cannot be
   * paused in the middle, so this bounds how long the engine keeps the host from other requests.
   */
  maxRowSteps: 8_000_000,
} as const;
