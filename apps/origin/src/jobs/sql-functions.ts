/**
 * The SQL functions a query or export job may call. An allow-list, not a deny-list: anything
 * new in SQLite or D1 (file access, extension loading, introspection) stays out until added here.
 * Every function below is pure: it reads its arguments and nothing else.
 */

/** Space-separated names, so the lists read as lists. */
const words = (...lines: string[]) => lines.flatMap((line) => line.split(" "));

const SCALAR = words(
  // core
  "abs char coalesce concat concat_ws format glob hex ifnull iif instr length like likely lower ltrim",
  "max min nullif octet_length printf quote random replace round rtrim sign substr substring trim",
  "typeof unhex unicode unlikely upper",
  // date and time
  "date time datetime julianday unixepoch strftime timediff",
  // math
  "acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2",
  "mod pi pow power radians sin sinh sqrt tan tanh trunc",
  // JSON: REPEATED snapshot columns are JSON arrays; these build values, none writes the database
  "json json_array json_array_length json_extract json_insert json_object json_patch json_quote",
  "json_remove json_replace json_set json_type json_valid",
);

const AGGREGATE = words(
  "avg count group_concat string_agg max min sum total json_group_array json_group_object",
);

const WINDOW = words(
  "row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value",
);

/** Functions that may appear in FROM: they expand a JSON value of the row into rows. */
const TABLE_VALUED = words("json_each json_tree");

const CALLABLE = new Set([...SCALAR, ...AGGREGATE, ...WINDOW]);
const AGGREGATES = new Set(AGGREGATE);
const TABLE_FUNCTIONS = new Set(TABLE_VALUED);

/** A function call in an expression (scalar, aggregate or window). */
export function isAllowedFunction(name: string): boolean {
  return CALLABLE.has(name.toLowerCase());
}

export function isAllowedAggregate(name: string): boolean {
  return AGGREGATES.has(name.toLowerCase());
}

/** A function in FROM position. */
export function isAllowedTableFunction(name: string): boolean {
  return TABLE_FUNCTIONS.has(name.toLowerCase());
}

/** Type names CAST may target (SQLite's affinities and their common spellings). */
const CAST_TYPES = new Set(
  words("INTEGER INT BIGINT TEXT VARCHAR CHAR REAL FLOAT DOUBLE NUMERIC DECIMAL BOOLEAN BLOB"),
);

export function isAllowedCastType(name: string): boolean {
  return CAST_TYPES.has(name.toUpperCase());
}

/** Collations built into SQLite. */
const COLLATIONS = new Set(words("BINARY NOCASE RTRIM"));

export function isAllowedCollation(name: string): boolean {
  return COLLATIONS.has(name.toUpperCase());
}
