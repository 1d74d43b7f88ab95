/**
 * The legacy `fields` projection over a reshaped document (v1 search results, v2 search hits
 * with `fields`): dotted paths picked out, returned flattened (`{"parsed.subject_dn": ...}`)
 * or nested (`{"parsed": {"subject_dn": ...}}`). A path through a list yields the list of the
 * items' values; fields the document lacks are left out, as the public service does.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The value at `path`; a key that itself holds dots (`validation.nss.valid`) is tried first. */
export function valueAtPath(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) {
    const values = value.map((item) => valueAtPath(item, path)).filter((item) => item !== undefined);
    return values.length > 0 ? values.flat() : undefined;
  }
  if (!isObject(value)) return undefined;
  for (let take = path.length; take >= 1; take--) {
    const key = path.slice(0, take).join(".");
    if (Object.hasOwn(value, key)) return valueAtPath(value[key], path.slice(take));
  }
  return undefined;
}

export function projectLegacyFields(document: unknown, fields: readonly string[], flatten: boolean): Json {
  const result: Json = {};
  for (const field of fields) {
    const value = valueAtPath(document, field.split("."));
    if (value === undefined) continue;
    if (flatten) {
      result[field] = value;
      continue;
    }
    const segments = field.split(".");
    let target = result;
    for (const segment of segments.slice(0, -1)) {
      const next = target[segment];
      target = target[segment] = isObject(next) ? next : {};
    }
    target[segments[segments.length - 1] ?? field] = value;
  }
  return result;
}
