import { mapKeySegment, parseIpv4, textWords, type FieldType, type IndexRegistry } from "@scangate/search";
import type { TableRow } from "./rows";

/**
 * The field catalogue: every leaf path the documents of an index show, with its type, so any
 * of them can be searched, reported and aggregated. The seeder walks each document it stores
 * (`LeafRecorder`) and writes
 *
 * - `field_catalog` rows `(id, index_name, path, type, scope)`, one per searchable leaf path;
 * - `field_values` rows `(field, value, doc, scope)`, one per distinct leaf value of a document
 *   (`doc` is the root row's rowid, `scope` the `host_services` id for `services.*` leaves of
 *   v2 hosts and 0 otherwise), so `services: (port: 443 and tls.cipher_selected: X)` holds on
 *   one service;
 * - `field_words` rows `(field, word, doc, scope)` for text fields (see `textWords`).
 *
 * Leaves the hot columns of `registries.ts` already serve get no rows here. The worker reads
 * the catalogue back (services/field-catalog.ts) and adds its leaves to those registries.
 */

export const CATALOG_INDEXES = ["hosts", "ipv4", "certificates", "websites"] as const;
export type CatalogIndex = (typeof CATALOG_INDEXES)[number];

/** The nested scope of v2 host documents (one `host_services` row per element). */
export const SERVICES_SCOPE = "services";

/**
 * Which string leaves are text (matched by words, a quoted value as a phrase) rather than
 * keyword (the whole value, case-insensitively): free-form names, DNs, titles, headers,
 * banners and descriptions, as Censys's data definitions type them. One list for every index,
 * matched against the searchable path.
 */
export const TEXT_FIELDS: readonly RegExp[] = [
  /(^|\.)autonomous_system\.(name|description)$/,
  /(^|\.)(subject_dn|issuer_dn)$/,
  /(^|\.)(subject|issuer)\.(organization|organizational_unit)$/,
  /\.headers\.[^.]+$/,
  /(^|\.)(title|html_title|html_tags|status_reason|description)$/,
  /(^|\.)(banner|ehlo|start_tls|auth_tls_resp|auth_response|message)$/,
  // Request URIs: `services.http.request.uri: mythweb` finds a path segment.
  /(^|\.)uri$/,
];

/**
 * Leaves the documents show that are deliberately not searchable: encoding annotations (how a
 * value is displayed, not data) and the certificate's DER (its hashes and parsed fields are
 * searchable instead).
 */
export const NOT_SEARCHABLE: Record<CatalogIndex, readonly RegExp[]> = {
  hosts: [/(^|\.)_encoding(\.|$)/],
  ipv4: [],
  certificates: [/^raw$/],
  websites: [],
};

/**
 * Leaves stored once per distinct value outside the leaf tables (`http_bodies`, keyed by the
 * body's hash): HTTP bodies. They are searchable by their whole value, their words through the
 * full-text index, and are not broken down (their hashes are).
 */
export const HASHED_LEAVES: Record<CatalogIndex, readonly RegExp[]> = {
  hosts: [/^services\.http\.response\.body$/],
  ipv4: [/^\d+\.[a-z0-9_]+\.get\.body$/],
  certificates: [],
  websites: [/^\d+\.[a-z0-9_]+\.get\.body$/],
};

/**
 * The searchable name of a document path: segments lowercased, characters a field name cannot
 * hold (`Content-Type`) turned into `_`, as Censys names header fields (`headers.content_type`);
 * the search package reads a map's keys the same way (`mapKeySegment`).
 */
export function searchablePath(segments: readonly string[]): string {
  return segments.map(mapKeySegment).join(".");
}

export function isSearchable(index: CatalogIndex, path: string): boolean {
  return !NOT_SEARCHABLE[index].some((pattern) => pattern.test(path));
}

/** Whether a leaf is stored in the leaf tables (searchable, and broken down by its values). */
export function isLeafStored(index: CatalogIndex, path: string): boolean {
  return isSearchable(index, path) && !HASHED_LEAVES[index].some((pattern) => pattern.test(path));
}

export function isTextField(path: string): boolean {
  return TEXT_FIELDS.some((pattern) => pattern.test(path));
}

/** One leaf of a document: its searchable path, its JSON value, and the scope element it is in. */
export interface DocumentLeaf {
  path: string;
  value: string | number | boolean;
  /** Index of the `services` element holding it (v2 hosts), else null. */
  scopeIndex: number | null;
}

/** Every leaf of a document; arrays repeat their path, nulls are no value. */
export function documentLeaves(index: CatalogIndex, document: unknown): DocumentLeaf[] {
  const out: DocumentLeaf[] = [];
  const walk = (value: unknown, segments: string[], scopeIndex: number | null): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      const scoped = index === "hosts" && segments.length === 1 && segments[0] === SERVICES_SCOPE;
      value.forEach((item, i) => walk(item, segments, scoped ? i : scopeIndex));
      return;
    }
    if (typeof value === "object") {
      for (const [key, item] of Object.entries(value)) walk(item, [...segments, key], scopeIndex);
      return;
    }
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      out.push({ path: searchablePath(segments), value, scopeIndex });
  };
  walk(document, [], null);
  return out;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const IP_PATH = /(^|\.)(ip|[a-z0-9_]+_ip)$/;

/** The type a first value gives a path (the declared text list decides text vs keyword). */
function typeOf(path: string, value: string | number | boolean): FieldType {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  if (IP_PATH.test(path) && parseIpv4(value) !== null) return "ip";
  if (TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))) return "timestamp";
  return isTextField(path) ? "text" : "keyword";
}

/** The stored form of a value under its path's type (registry.ts conventions), or null if it does not fit. */
function storedValue(type: FieldType, value: string | number | boolean): string | number | null {
  switch (type) {
    case "boolean":
      return typeof value === "boolean" ? (value ? 1 : 0) : null;
    case "integer":
    case "float":
      return typeof value === "number" ? value : null;
    case "ip":
      return typeof value === "string" ? parseIpv4(value) : null;
    case "timestamp": {
      if (typeof value !== "string" || !TIMESTAMP.test(value)) return null;
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? null : ms;
    }
    default:
      return String(value);
  }
}

/** SQLite's NOCASE folds ASCII letters only; rows that differ in nothing else are one row. */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

interface CatalogEntry {
  id: number;
  type: FieldType;
  scope: string | null;
}

/**
 * Collects the catalogue while the seeder streams documents: `rows` returns the leaf rows of
 * one document, `catalogRows` the catalogue itself once every document was seen.
 */
export class LeafRecorder {
  private readonly entries = new Map<string, CatalogEntry>();
  /** Entries of a catalogue already written (`resuming`), left out of `catalogRows`. */
  private readonly written = new Set<string>();
  private nextId = 1;

  /** `hot`: the registries whose fields have columns of their own (no leaf rows for those). */
  constructor(private readonly hot: Record<CatalogIndex, IndexRegistry>) {}

  /**
   * A recorder that continues a catalogue already written (documents indexed beside a seeded
   * dataset): its paths keep their ids and types, new ones are numbered after them, and
   * `catalogRows` lists only the new ones.
   */
  static resuming(
    hot: Record<CatalogIndex, IndexRegistry>,
    catalogue: readonly {
      id: number;
      index_name: string;
      path: string;
      type: string;
      scope: string | null;
    }[],
  ): LeafRecorder {
    const recorder = new LeafRecorder(hot);
    for (const row of catalogue) {
      const name = `${row.index_name}\u0000${row.path}`;
      recorder.entries.set(name, { id: row.id, type: row.type as FieldType, scope: row.scope });
      recorder.written.add(name);
      recorder.nextId = Math.max(recorder.nextId, row.id + 1);
    }
    return recorder;
  }

  /**
   * Leaf rows of one stored document. `rowid` is the root row's; `scopeIds[i]` the
   * `host_services` id of the document's i-th service (v2 hosts).
   */
  rows(index: CatalogIndex, document: unknown, rowid: number, scopeIds: readonly number[] = []): TableRow[] {
    const rows: TableRow[] = [];
    const seen = new Set<string>();
    const hotFields = this.hot[index].fields;
    for (const leaf of documentLeaves(index, document)) {
      if (hotFields[leaf.path] !== undefined || !isLeafStored(index, leaf.path)) continue;
      const entry = this.entry(index, leaf);
      const value = storedValue(entry.type, leaf.value) ?? String(leaf.value);
      const scope = leaf.scopeIndex === null ? 0 : (scopeIds[leaf.scopeIndex] ?? 0);
      const key = `${entry.id}\u0000${scope}\u0000${typeof value === "string" ? foldAscii(value) : `#${value}`}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(["field_values", { field: entry.id, value, doc: rowid, scope }]);
      if (entry.type !== "text" || typeof value !== "string") continue;
      for (const word of new Set(textWords(value))) {
        const wordKey = `${entry.id}\u0000${scope}\u0000w:${word}`;
        if (seen.has(wordKey)) continue;
        seen.add(wordKey);
        rows.push(["field_words", { field: entry.id, word, doc: rowid, scope }]);
      }
    }
    return rows;
  }

  private entry(index: CatalogIndex, leaf: DocumentLeaf): CatalogEntry {
    const name = `${index}\u0000${leaf.path}`;
    let entry = this.entries.get(name);
    if (!entry) {
      const scope = leaf.scopeIndex === null ? null : SERVICES_SCOPE;
      entry = { id: this.nextId++, type: typeOf(leaf.path, leaf.value), scope };
      this.entries.set(name, entry);
    } else if (entry.type === "integer" && typeof leaf.value === "number" && !Number.isInteger(leaf.value)) {
      // Numbers are stored as numbers either way; the path only widens to take fractions.
      entry.type = "float";
    }
    return entry;
  }

  catalogRows(): TableRow[] {
    return [...this.entries]
      .filter(([name]) => !this.written.has(name))
      .map(([name, entry]) => {
        const [index = "", path = ""] = name.split("\u0000");
        return [
          "field_catalog",
          { id: entry.id, index_name: index, path, type: entry.type, scope: entry.scope },
        ];
      });
  }
}
