import {
  cenqlAggregateField as mapAggregateField,
  compileCenqlSearch,
  type CenqlAggregateField,
  type CompileOptions,
  type CenqlRegistries,
  type CenqlResource,
  type IndexRegistry,
} from "@scangate/search";
import type { CatalogIndex } from "../dataset/field-catalog";
import { certificatesRegistry, hostsRegistryV2, websitesRegistry } from "../dataset/registries";
import { invalidQuery, type CompiledWhere } from "./search-engine";

/**
 * CenQL (the Platform's query language) over the origin's own indexes: a query names its
 * resource through its fields (`host.`, `cert.`, `web.`) and compiles, through the search
 * package's rename table, to the same SQL the legacy search runs over the v2 hosts,
 * certificates and websites registries. A refused query is the `invalid_query` ApiError the
 * legacy search throws, with the position and token where it failed.
 */

export type { CenqlAggregateField, CenqlRegistries, CenqlResource };

/** The hot registries (no field catalogue): enough for the hot columns, used when none are given. */
export const HOT_CENQL_REGISTRIES: CenqlRegistries = {
  host: hostsRegistryV2,
  cert: certificatesRegistry,
  web: websitesRegistry,
};

/**
 * The registries CenQL compiles against, with the field catalogue's leaves: pass
 * `(index) => services.dataset.registry(index)`.
 */
export async function cenqlRegistries(
  registry: (index: CatalogIndex) => Promise<IndexRegistry>,
): Promise<CenqlRegistries> {
  const [host, cert, web] = await Promise.all([
    registry("hosts"),
    registry("certificates"),
    registry("websites"),
  ]);
  return { host, cert, web };
}

/**
 * The resource a CenQL query searches and its WHERE condition over that resource's root table
 * (alias `r`: `hosts`, `certificates` or `websites`); a query naming several resources reads
 * hosts first and carries the others' conditions in `where.others`. Throws `invalid_query` for
 * a query that does not parse, names an unknown field (by its CenQL name) or holds a character
 * D1 cannot bind (NUL, a lone surrogate), as the legacy search does.
 */
export function compileCenql(
  query: string,
  now: Date,
  registries: CenqlRegistries = HOT_CENQL_REGISTRIES,
  options: Pick<CompileOptions, "scopeRow" | "maxParams"> = {},
): { resource: CenqlResource; where: CompiledWhere } {
  const compiled = compileCenqlSearch(query, registries, { now, ...options });
  if (!compiled.ok) throw invalidQuery(compiled.error, "v2");
  const [first, ...others] = compiled.value.parts;
  if (first === undefined) throw new Error("a CenQL query is read for at least one resource");
  return { resource: first.resource, where: others.length > 0 ? { ...first.where, others } : first.where };
}

/** An aggregate's CenQL `field` → its resource, legacy field and nested level; `invalid_query` when unknown. */
export function cenqlAggregateField(
  path: string,
  registries: CenqlRegistries = HOT_CENQL_REGISTRIES,
): CenqlAggregateField {
  const mapped = mapAggregateField(path, registries);
  if (!mapped.ok) throw invalidQuery(mapped.error, "v2");
  return mapped.value;
}
