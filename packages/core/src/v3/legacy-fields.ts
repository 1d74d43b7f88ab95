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

/** The part of `value` at `path`, keeping its shape: lists stay lists, item by item. */
function pickPath(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => pickPath(item, path));
    return items.some((item) => item !== undefined) ? items.map((item) => item ?? {}) : undefined;
  }
  if (!isObject(value)) return undefined;
  for (let take = path.length; take >= 1; take--) {
    const key = path.slice(0, take).join(".");
    if (!Object.hasOwn(value, key)) continue;
    const picked = pickPath(value[key], path.slice(take));
    return picked === undefined ? undefined : { [key]: picked };
  }
  return undefined;
}

/** Two picks of one document laid over each other (lists item by item). */
function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((item, i) => merge(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const merged: Json = { ...a };
    for (const [key, value] of Object.entries(b))
      merged[key] = key in merged ? merge(merged[key], value) : value;
    return merged;
  }
  return b ?? a;
}

export function projectLegacyFields(document: unknown, fields: readonly string[], flatten: boolean): Json {
  let result: Json = {};
  for (const field of fields) {
    if (flatten) {
      const value = valueAtPath(document, field.split("."));
      if (value !== undefined) result[field] = value;
      continue;
    }
    const picked = pickPath(document, field.split("."));
    if (isObject(picked)) result = merge(result, picked) as Json;
  }
  return result;
}
