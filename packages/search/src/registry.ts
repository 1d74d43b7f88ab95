/**
 * How an index's searchable fields map onto SQL storage. Each app describes its own tables
 * with one registry per index; the compiler turns a query over dotted field names into a
 * parameterised boolean SQL expression over the root table (alias `r`).
 *
 * Storage conventions the compiler relies on:
 * - keyword and text columns are TEXT declared `COLLATE NOCASE` (so `field: value` is a
 *   case-insensitive, index-friendly match);
 * - ip columns hold the IPv4 address as an INTEGER (so CIDR and ranges are integer ranges);
 * - timestamp columns hold INTEGER epoch milliseconds;
 * - boolean columns hold INTEGER 0/1.
 */
export type FieldType = "text" | "keyword" | "integer" | "float" | "ip" | "timestamp" | "boolean";

/** Where a field's values live. */
export type FieldStorage =
  /** A column of the root table. */
  | { kind: "column"; column: string }
  /** A multi-valued side table: rows of (key, value), `key` referencing the root key. */
  | { kind: "side"; table: string; key: string; column: string }
  /** A column of a nested scope's table (for example one row per service). */
  | { kind: "scoped"; scope: string; column: string }
  /**
   * A leaf of the documents in the index's generic leaf tables (`IndexRegistry.leaves`), under
   * the catalogue id `id`. With `scope`, the leaf belongs to one row of that scope (its `scope`
   * column holds the scope row's rowid), so it can be used inside `scope: (...)`.
   */
  | { kind: "leaf"; id: number; scope?: string }
  /**
   * A field the index's schema has that no document of this dataset holds (a per-port family
   * member, a header nobody sends): known, so a query naming it is answered (no document
   * matches it), never refused as an unknown field.
   */
  | { kind: "absent" }
  /**
   * A large value kept once per distinct value in `table` (`column`, keyed by `key`) and named
   * in the documents by its hash, the field `field` (`services.http.response.body` by
   * `services.http.response.body_hashes`): a condition selects the matching values' keys
   * (`keyPrefix` + key, as the hash field spells them) and tests the hash field for them.
   */
  | { kind: "hashed"; field: string; table: string; key: string; column: string; keyPrefix?: string };

export interface FieldDef {
  type: FieldType;
  storage: FieldStorage;
}

/** A nested scope such as `services`: one table row per nested object. */
export interface ScopeDef {
  table: string;
  /** Column of the scope table that references the root key. */
  key: string;
}

export interface IndexRegistry {
  name: string;
  root: { table: string; key: string };
  scopes: Record<string, ScopeDef>;
  /** Full dotted field names, e.g. `services.port`, `location.country`. */
  fields: Record<string, FieldDef>;
  /** An FTS5 table whose rowid equals the root table's rowid, for bare full-text terms. */
  fullText?: { table: string };
  /** The generic leaf tables, for fields stored as `leaf`. */
  leaves?: LeafTables;
  /**
   * Families of field names the schema has beyond those listed (`<port>.<protocol>.get.title`
   * for any port, a header of any name): a name one matches that no field lists is `absent`.
   */
  families?: readonly FieldFamily[];
  /**
   * Key/value maps whose every key is a field of its own (`services.http.response.headers`:
   * `headers.server`, `headers.content_type`). Besides those, `<map>.key` (or `.name`) names
   * an entry by its key and `<map>.value` (or `.value.headers`) tests any entry's value, and
   * `<map>: (key: K and value: V)` tests the value of entry K, as Censys reads headers.
   */
  maps?: readonly string[];
}

/** A family of field names (see `IndexRegistry.families`). */
export interface FieldFamily {
  pattern: RegExp;
  type: FieldType;
}

/**
 * Every leaf value of a document, one row each, whatever its path:
 *
 * - `values`: rows `(field, value, doc, scope)`: the catalogue id, the value (TEXT for keyword
 *   and text fields, compared `COLLATE NOCASE`; INTEGER or REAL for the other types, stored as
 *   the column conventions above say), the root row's rowid and the scope row's rowid (0 outside
 *   scopes). Indexed on `(field, value)`, so a condition on one field is an index range.
 * - `words`: rows `(field, word, value)` for text fields: each word (`textWords`) of each
 *   distinct value, so `field: word` is an index lookup of the values holding the word.
 */
export interface LeafTables {
  values: string;
  words: string;
}

/**
 * The entry of a registry record under a name a query gave: own keys only, so `toString` or
 * `__proto__` names no field or scope (an inherited property would otherwise be taken for one).
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
