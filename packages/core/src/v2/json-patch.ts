import type { JsonPatchOperation } from "./host-history";

/**
 * The JSON Patch (RFC 6902) that turns `a` into `b`: objects key by key, arrays index by index
 * (the common prefix in place, then the tail added or removed), anything else replaced whole.
 * Applying the operations in order to `a` gives `b`. Keys are visited in sorted order so the
 * same two documents always give the same patch.
 */
export function diffJson(a: unknown, b: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diffInto(ops, "", a, b);
  return ops;
}

/** RFC 6901: `~` and `/` inside a key are escaped. */
function pointerSegment(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function diffInto(ops: JsonPatchOperation[], path: string, a: unknown, b: unknown): void {
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a).sort()) {
      const at = `${path}/${pointerSegment(key)}`;
      if (!(key in b)) ops.push({ op: "remove", path: at });
      else diffInto(ops, at, a[key], b[key]);
    }
    for (const key of Object.keys(b).sort()) {
      if (!(key in a)) ops.push({ op: "add", path: `${path}/${pointerSegment(key)}`, value: b[key] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diffInto(ops, `${path}/${i}`, a[i], b[i]);
    // Removed from the end backwards, so each index is still valid when its turn comes.
    for (let i = a.length - 1; i >= common; i--) ops.push({ op: "remove", path: `${path}/${i}` });
    for (let i = common; i < b.length; i++) ops.push({ op: "add", path: `${path}/${i}`, value: b[i] });
    return;
  }
  if (!sameJson(a, b)) ops.push({ op: "replace", path, value: b });
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
