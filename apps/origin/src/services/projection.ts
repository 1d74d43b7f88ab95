/**
 * The `fields` projection of v1 search: dotted paths picked out of a stored document, returned
 * flattened (`{"location.country": ...}`) or nested (`{"location": {"country": ...}}`).
 */

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The value at `segments` below `value`. Arrays on the way are mapped over (a path into a list
 * of objects yields the list of their values). Documents may hold keys that themselves contain
 * dots (the certificate's `validation.nss.valid`), so the longest literal key is tried first.
 */
function valueAt(value: Json, segments: readonly string[]): Json {
  if (segments.length === 0) return value;
  if (Array.isArray(value)) {
    const values = value.map((item) => valueAt(item, segments)).filter((item) => item !== undefined);
    return values.length > 0 ? values.flat() : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (let take = segments.length; take >= 1; take--) {
    const key = segments.slice(0, take).join(".");
    if (Object.hasOwn(value, key)) return valueAt(value[key], segments.slice(take));
  }
  return undefined;
}

/** Nested objects become dotted keys; lists and scalars are leaves. */
function flattenInto(target: Record<string, Json>, prefix: string, value: Json): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flattenInto(target, `${prefix}.${key}`, inner);
  } else {
    target[prefix] = value;
  }
}

/**
 * Copies the value at `segments` from `source` into `target`, keeping the document's shape:
 * lists stay lists (element by element), so `services.port` and `services.service_name`
 * together give `services: [{port, service_name}, ...]`. Returns whether anything was copied.
 */
function pickInto(target: Record<string, Json>, source: Json, segments: readonly string[]): boolean {
  if (!isPlainObject(source)) return false;
  for (let take = segments.length; take >= 1; take--) {
    const key = segments.slice(0, take).join(".");
    if (!Object.hasOwn(source, key)) continue;
    const rest = segments.slice(take);
    const value = source[key];
    if (rest.length === 0) {
      target[key] = value;
      return true;
    }
    if (Array.isArray(value)) {
      const existing = target[key];
      const items: Json[] = Array.isArray(existing) ? existing : value.map(() => ({}));
      let copied = false;
      value.forEach((item, i) => {
        const slot = items[i];
        if (isPlainObject(slot) && pickInto(slot, item, rest)) copied = true;
      });
      if (copied) target[key] = items;
      return copied;
    }
    const existing = target[key];
    const child: Record<string, Json> = isPlainObject(existing) ? existing : {};
    if (!pickInto(child, value, rest)) return false;
    target[key] = child;
    return true;
  }
  return false;
}

/** Fields the document lacks are left out of the result, as the public service does. */
export function projectFields(
  document: Json,
  fields: readonly string[],
  flatten: boolean,
): Record<string, Json> {
  const result: Record<string, Json> = {};
  for (const field of fields) {
    const segments = field.split(".").filter((segment) => segment.length > 0);
    if (!flatten) {
      pickInto(result, document, segments);
      continue;
    }
    const value = valueAt(document, segments);
    if (value !== undefined) flattenInto(result, segments.join("."), value);
  }
  return result;
}
