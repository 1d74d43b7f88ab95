import type { JsonSchema } from "./fuzz";

// Lone surrogates for the fuzz suites (test/support/fuzz.ts): where a request's strings are,
// how to put a lone surrogate into one, and how one travels in a URL. Every such request must
// be refused with a 4xx in its version's shape and change nothing: no UTF-8 store or answer can
// hold a lone surrogate, so accepting one means storing or answering something else.

/** High and low surrogates, at the ends of their ranges and one of an emoji's halves. */
export const LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"] as const;

/** Where a string is in a request: a path or query parameter, or a place in the JSON body. */
export interface StringField {
  part: "params" | "query" | "body";
  path: ReadonlyArray<string | number>;
}

export function describeField(field: StringField): string {
  const path = field.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
  return `${field.part}${path}`;
}

/** Whether a value of `schema` may be a string (an untyped schema takes any JSON). */
function admitsString(schema: JsonSchema): boolean {
  if (schema.anyOf) return schema.anyOf.some(admitsString);
  if (schema.enum) return schema.enum.some((value) => typeof value === "string");
  if ("const" in schema) return typeof schema.const === "string";
  if (schema.type === undefined) return true;
  return Array.isArray(schema.type) ? schema.type.includes("string") : schema.type === "string";
}

/** The paths of the strings a value of `schema` holds: its own, its properties', its items'. */
function bodyStrings(schema: JsonSchema, at: ReadonlyArray<string | number>, depth: number): StringField[] {
  if (depth > 4) return [];
  const found: StringField[] = admitsString(schema) && at.length > 0 ? [{ part: "body", path: at }] : [];
  const alternatives = schema.anyOf ?? [schema];
  const seen = new Set(found.map(describeField));
  for (const alternative of alternatives) {
    const nested = [
      ...Object.entries(alternative.properties ?? {}).flatMap(([name, property]) =>
        bodyStrings(property, [...at, name], depth + 1),
      ),
      ...(alternative.items ? bodyStrings(alternative.items, [...at, 0], depth + 1) : []),
    ];
    for (const field of nested) {
      if (!seen.has(describeField(field))) {
        seen.add(describeField(field));
        found.push(field);
      }
    }
  }
  return found;
}

/**
 * Every string field of a request: each path parameter, each query parameter (a URL carries
 * only text), and each string of the JSON body, nested ones too.
 */
export function stringFields(
  params: readonly string[],
  query: JsonSchema | undefined,
  body: JsonSchema | undefined,
): StringField[] {
  return [
    ...params.map((name): StringField => ({ part: "params", path: [name] })),
    ...Object.keys(query?.properties ?? {}).map((name): StringField => ({ part: "query", path: [name] })),
    ...(body ? bodyStrings(body, [], 0) : []),
  ];
}

/** `current` with `surrogate` put in at `at` (any position), or a short text around it. */
function withSurrogate(current: unknown, surrogate: string, at: number): string {
  const text = typeof current === "string" && current !== "" ? current : "x";
  const position = at % (text.length + 1);
  return `${text.slice(0, position)}${surrogate}${text.slice(position)}`;
}

/** `value` with the string at `path` given a lone surrogate; missing containers are made. */
export function putSurrogate(
  value: unknown,
  path: ReadonlyArray<string | number>,
  surrogate: string,
  at: number,
): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return withSurrogate(value, surrogate, at);
  if (typeof key === "number") {
    const items = Array.isArray(value) ? [...(value as unknown[])] : [];
    items[Math.min(key, items.length)] = putSurrogate(items[key], rest, surrogate, at);
    return items;
  }
  const object = value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  const copy = Object.assign(Object.create(null) as Record<string, unknown>, object);
  copy[key] = putSurrogate(copy[key], rest, surrogate, at);
  return copy;
}

const UNRESERVED = /[A-Za-z0-9_.~-]/;

/**
 * Percent-encodes `text` for a URL: characters as their UTF-8 bytes, a lone surrogate as the
 * three bytes an encoder that does not check writes for it (`\ud800` → `%ED%A0%80`, WTF-8):
 * that is how one reaches a server in a URL, and those bytes are not UTF-8.
 */
export function percentEncode(text: string): string {
  let encoded = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        : [...new TextEncoder().encode(char)];
    for (const byte of bytes) {
      const plain = String.fromCharCode(byte);
      encoded +=
        byte < 0x80 && UNRESERVED.test(plain)
          ? plain
          : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return encoded;
}
