import {
  reasonPhrase,
  v1ErrorSchema,
  v1UnauthorizedErrorSchema,
  v2ErrorSchema,
  v3ProblemSchema,
  V3_PROBLEM_MEDIA_TYPE,
} from "@scangate/core";
import fc from "fast-check";
import { expect, it } from "vitest";
import { z } from "zod";
import {
  describeField,
  LONE_SURROGATES,
  percentEncode,
  putSurrogate,
  stringFields,
  type StringField,
} from "./fuzz-surrogates";

// The request generators and answer checks of the fuzz suites (this worker's test/fuzz.test.ts
// and the edge's test/reliability/fuzz.test.ts): a route list in, fast-check arbitraries out.
// Shapes come from the core zod schemas, through their JSON Schema (what /openapi.json shows).

/** The JSON Schema subset the core request schemas convert to. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** One route, as both workers' definitions give it. Paths use Hono's `:name{pattern}`. */
export interface FuzzRoute {
  method: string;
  path: string;
  operation: string;
  /** The error body family: v1 or v2 (the admin API answers in the v2 shape), v3 problem+json. */
  version: FuzzVersion;
  /** Which credential a valid request carries (`platform`: the Platform API's bearer token). */
  auth: "tenant" | "admin" | "platform";
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** The success body; "file" for a download, "empty" for a 204. */
  ok: z.ZodType | "file" | "empty";
  /**
   * Path parameters the worker replaces unread (the edge puts its pool's organization id in a
   * /v3 account path): a lone surrogate there reaches nothing, so none is put there.
   */
  unread?: readonly string[];
}

/** Values that make a field mean something to the service (a real host, a query that parses). */
export type Samples = Record<string, readonly unknown[]>;

/** A request ready to send; `what` says how it was made, for the failure message. */
export interface FuzzRequest {
  what: string;
  /**
   * A path parameter was made bad: the request may now match another route (an empty `:series`
   * makes `/api/v1/data/` the series list), so only the error shape of the answer is checked.
   */
  routeMayChange?: true;
  /** A lone surrogate was put in a string field: the answer must be a 4xx. */
  mustRefuse?: true;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface Credentials {
  tenant: string;
  admin: string;
  /** The Authorization of a Platform (v3) caller, where the worker serves /v3. */
  platform?: string;
}

export type FuzzVersion = "v1" | "v2" | "v3";

/** The error body family of a path: v1, v2 (everything else), or v3 (the Platform API). */
export function fuzzVersionOfPath(path: string, legacy: (path: string) => "v1" | "v2"): FuzzVersion {
  return path === "/v3" || path.startsWith("/v3/") ? "v3" : legacy(path);
}

const MAX_GENERATED_STRING = 40;

/** Values of `schema` (any JSON where the schema says nothing). */
export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(arbitraryOf));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })));
  switch (schema.type) {
    case "string":
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? MAX_GENERATED_STRING, MAX_GENERATED_STRING),
      });
    case "integer": {
      const min = Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31));
      const max = Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1);
      return fc.oneof(
        fc.integer({ min, max }),
        fc.constantFrom(schema.minimum ?? min, schema.maximum ?? max),
      );
    }
    case "number":
      return fc.oneof(
        fc.integer({
          min: Math.max(schema.minimum ?? -1000, -1000),
          max: Math.min(schema.maximum ?? 1000, 1000),
        }),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum }),
      );
    case "boolean":
      return fc.boolean();
    case "array": {
      const minLength = schema.minItems ?? 0;
      return fc.array(arbitraryOf(schema.items ?? {}), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)),
      });
    }
    case "object":
      return objectOf(schema, {});
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An object of `schema`, a sample or a generated value per property (samples first). */
function objectOf(schema: JsonSchema, samples: Samples): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const known = samples[name];
      const generated = arbitraryOf(property);
      return [
        name,
        known && known.length > 0
          ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: generated, weight: 1 })
          : generated,
      ];
    }),
  );
  return fc.record(fields, { requiredKeys: schema.required ?? [] });
}

/** The parts of a request before it is rendered: what the mutations change one at a time. */
interface Parts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  auth: string | null;
  contentType: string | null;
}

const PARAM = /:([a-z_]+)(\{[^}]*\})?/g;

export function paramNames(route: FuzzRoute): string[] {
  return [...route.path.matchAll(PARAM)].map((match) => match[1] ?? "");
}

function paramArbitrary(route: FuzzRoute, name: string, samples: Samples): fc.Arbitrary<unknown> {
  const known = samples[`${route.operation}.${name}`] ?? samples[name];
  if (known && known.length > 0) return fc.constantFrom(...known);
  const property = route.params?.properties?.[name];
  if (property) return arbitraryOf(property);
  const pattern = /\{([^}]*)\}/.exec(route.path.slice(route.path.indexOf(`:${name}`)))?.[1];
  return pattern ? fc.stringMatching(new RegExp(`^${pattern}$`)) : fc.string({ minLength: 1, maxLength: 20 });
}

/** Samples under `operation.field` win over plain `field` (a job's `query` is SQL, a search's is not). */
function samplesFor(route: FuzzRoute, samples: Samples): Samples {
  const own: Samples = { ...samples };
  for (const [key, values] of Object.entries(samples)) {
    const [operation, field] = key.split(".");
    if (field !== undefined && operation === route.operation) own[field] = values;
  }
  return own;
}

function validParts(route: FuzzRoute, samples: Samples, credentials: Credentials): fc.Arbitrary<Parts> {
  const own = samplesFor(route, samples);
  const params = fc.record(
    Object.fromEntries(
      // An empty parameter would make the path another route's (`/comments/` is the list), and so
      // would a dot segment: URLs resolve `/comments/.` to `/comments/` (and `%2E` alike).
      paramNames(route).map((name) => [
        name,
        paramArbitrary(route, name, samples).filter((v) => !["", ".", ".."].includes(asText(v))),
      ]),
    ),
  );
  const query = route.query ? objectOf(route.query, own) : fc.constant({});
  const body = route.body ? objectOf(route.body, own) : fc.constant(undefined);
  return fc.record({
    params,
    query,
    body,
    auth: fc.constant(
      route.auth === "admin"
        ? credentials.admin
        : route.auth === "platform"
          ? (credentials.platform ?? credentials.tenant)
          : credentials.tenant,
    ),
    contentType: fc.constant(route.body ? "application/json" : null),
  });
}

/** Strings that have broken parsers, SQL, HTML and file paths before. */
export const INJECTIONS = [
  "' OR 1=1 --",
  '" OR ""="',
  "'; DROP TABLE tenants; --",
  "1; select sqlite_version()",
  '") UNION SELECT * FROM sqlite_master --',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "../../etc/passwd",
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "%00",
  "\u0000",
  "%ZZ",
  "%",
  "${7*7}",
  "{{7*7}}",
  "$(id)",
  "`id`",
  "\\",
  "*",
  "\r\nX-Injected: 1",
] as const;

export const PROTOTYPE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
] as const;

/** One bad value: wrong type, out of range, too long, odd unicode, a prototype name, an injection. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
  ),
  fc.constantFrom(
    -1,
    0,
    -0,
    2 ** 31,
    2 ** 53 + 2,
    1e308,
    -1e308,
    0.5,
    "NaN",
    "Infinity",
    "-1",
    "1e309",
    "0x10",
    "",
  ),
  fc
    .tuple(fc.integer({ min: 1_000, max: 70_000 }), fc.constantFrom("x", "é", "😀", "(", "%", " "))
    .map(([n, c]) => c.repeat(n)),
  fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.constantFrom("\u202e", "\u200b", "\ufeff", "\ud800", "e\u0301", "ﬀ", "𝕏", "\u0000x"),
  ),
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.constantFrom(...INJECTIONS),
);

/** A field of a request and what replaces it. */
type Mutation =
  | { part: "params" | "query" | "body"; field: string; value: unknown }
  | { part: "wholeBody"; value: unknown }
  | { part: "auth"; value: string | null }
  | { part: "contentType"; value: string | null }
  | { part: "surrogate"; field: StringField; surrogate: string; at: number };

/** The string fields of `route`'s requests. */
const stringFieldsOf = (route: FuzzRoute) =>
  stringFields(
    paramNames(route).filter((name) => !route.unread?.includes(name)),
    route.query,
    route.body,
  );

const badAuth = (credentials: Credentials): fc.Arbitrary<string | null> =>
  fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      "Basic",
      "Basic !!!",
      `Basic ${btoa("no-colon")}`,
      `Basic ${btoa(":")}`,
      `Basic ${btoa("' OR 1=1 --:x")}`,
      "Bearer",
      "Bearer ' OR 1=1 --",
      `Bearer ${credentials.admin}x`,
      credentials.admin,
      credentials.tenant.replace("Basic", "Bearer"),
    ),
    fc.string({ maxLength: 30 }).map((s) => `Basic ${btoa(s)}`),
  );

function mutation(route: FuzzRoute, credentials: Credentials): fc.Arbitrary<Mutation> {
  const fieldsOf = (schema: JsonSchema | undefined) => [
    ...Object.keys(schema?.properties ?? {}),
    ...PROTOTYPE_KEYS,
  ];
  const choices: Array<fc.Arbitrary<Mutation>> = [
    fc.record({
      part: fc.constant("query" as const),
      field: fc.constantFrom(...fieldsOf(route.query)),
      value: badValue,
    }),
    fc.record({ part: fc.constant("auth" as const), value: badAuth(credentials) }),
  ];
  const strings = stringFieldsOf(route);
  if (strings.length > 0)
    choices.push(
      fc.record({
        part: fc.constant("surrogate" as const),
        field: fc.constantFrom(...strings),
        surrogate: fc.constantFrom(...LONE_SURROGATES),
        at: fc.nat(),
      }),
    );
  const params = paramNames(route);
  if (params.length > 0)
    choices.push(
      fc.record({ part: fc.constant("params" as const), field: fc.constantFrom(...params), value: badValue }),
    );
  if (route.body || route.method !== "GET")
    choices.push(
      fc.record({
        part: fc.constant("body" as const),
        field: fc.constantFrom(...fieldsOf(route.body)),
        value: badValue,
      }),
      fc.record({ part: fc.constant("wholeBody" as const), value: badValue }),
      fc.record({
        part: fc.constant("contentType" as const),
        value: fc.constantFrom(
          null,
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "application/json, text/html",
        ),
      }),
    );
  return fc.oneof(...choices);
}

/** `{...object, [field]: value}` as an own property even for `__proto__`. */
function withField(object: unknown, field: string, value: unknown): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  if (object && typeof object === "object" && !Array.isArray(object)) Object.assign(copy, object);
  copy[field] = value;
  return copy;
}

function mutate(parts: Parts, change: Mutation): Parts {
  switch (change.part) {
    case "params":
    case "query":
      return { ...parts, [change.part]: withField(parts[change.part], change.field, change.value) };
    case "body":
      return {
        ...parts,
        body: withField(parts.body, change.field, change.value),
        contentType: "application/json",
      };
    case "wholeBody":
      return { ...parts, body: change.value, contentType: parts.contentType ?? "application/json" };
    case "auth":
      return { ...parts, auth: change.value };
    case "contentType":
      return { ...parts, contentType: change.value };
    case "surrogate": {
      const { part, path } = change.field;
      const changed = putSurrogate(parts[part], path, change.surrogate, change.at);
      return part === "body"
        ? { ...parts, body: changed, contentType: "application/json" }
        : { ...parts, [part]: changed as Record<string, unknown> };
    }
  }
}

function describeMutation(change: Mutation): string {
  if (change.part === "surrogate") return `a lone surrogate in ${describeField(change.field)}`;
  return `${change.part}${"field" in change ? `.${change.field}` : ""}`;
}

const asText = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");

function render(route: FuzzRoute, parts: Parts, what: string): FuzzRequest {
  const path = route.path.replace(PARAM, (_, name: string) => percentEncode(asText(parts.params[name])));
  const search: string[] = [];
  for (const [key, value] of Object.entries(parts.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      search.push(`${percentEncode(key)}=${percentEncode(asText(item))}`);
  }
  const headers: Record<string, string> = {};
  if (parts.auth !== null) headers.authorization = parts.auth;
  if (parts.contentType !== null && parts.body !== undefined) headers["content-type"] = parts.contentType;
  const query = search.join("&");
  return {
    what,
    method: route.method,
    path: query === "" ? path : `${path}?${query}`,
    headers,
    body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
  };
}

/** Well-formed requests to `route`: sample or generated values in every field. */
export function validRequest(
  route: FuzzRoute,
  samples: Samples,
  credentials: Credentials,
): fc.Arbitrary<FuzzRequest> {
  return validParts(route, samples, credentials).map((parts) =>
    render(route, parts, `valid ${route.method} ${route.path}`),
  );
}

/** A well-formed request to `route` with one field (or its auth, body or type) made bad. */
export function mutatedRequest(
  route: FuzzRoute,
  samples: Samples,
  credentials: Credentials,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(validParts(route, samples, credentials), mutation(route, credentials))
    .map(([parts, change]) => {
      const request = render(
        route,
        mutate(parts, change),
        `mutated ${route.method} ${route.path}: ${describeMutation(change)}`,
      );
      if (change.part === "surrogate") return { ...request, mustRefuse: true as const };
      return change.part === "params" ? { ...request, routeMayChange: true as const } : request;
    });
}

/**
 * One request per string field of `route` (each path and query parameter, each string of the
 * body, nested ones too), each a valid request with a lone surrogate put in that field.
 */
export function surrogateRequests(
  route: FuzzRoute,
  samples: Samples,
  credentials: Credentials,
  seed: number,
): FuzzRequest[] {
  const fields = stringFieldsOf(route);
  const bases = fc.sample(validParts(route, samples, credentials), { seed, numRuns: fields.length });
  return fields.flatMap((field, i) => {
    const base = bases[i];
    if (base === undefined) return [];
    const change: Mutation = {
      part: "surrogate",
      field,
      surrogate: LONE_SURROGATES[i % LONE_SURROGATES.length] ?? "\ud800",
      at: i * 7,
    };
    const what = `${route.method} ${route.path}: ${describeMutation(change)}`;
    return [{ ...render(route, mutate(base, change), what), mustRefuse: true as const }];
  });
}

/** How many requests `surrogateRequests` makes for `route`. */
export const surrogateFieldCount = (route: FuzzRoute): number => stringFieldsOf(route).length;

/**
 * Methods workerd's `Request` accepts, in any case. Other tokens it refuses to build; from a
 * socket the runtime answers them itself with a plain-text 501 (the edge README's API notes).
 */
const method = fc
  .tuple(
    fc.constantFrom(
      ...["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PURGE", "COPY", "LOCK", "MOVE"],
      ...["MKCOL", "PROPFIND", "SEARCH", "REPORT", "MERGE", "NOTIFY", "SUBSCRIBE", "ACL"],
    ),
    fc.boolean(),
  )
  .map(([name, lower]) => (lower ? name.toLowerCase() : name));

const segment = fc.oneof(
  fc.stringMatching(/^[a-z0-9_.~-]{0,12}$/),
  fc.constantFrom(
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "%00",
    "%ZZ",
    "%",
    ";",
    "api",
    "v1",
    "v2",
    "admin",
    "hosts",
    "tenants",
  ),
  fc.string({ unit: "grapheme", maxLength: 8 }).map(percentEncode),
  fc.constantFrom(...INJECTIONS).map(percentEncode),
);

/** Any path under `prefixes`, or beside them: random segments, a query string sometimes. */
export function junkPath(prefixes: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.array(segment, { maxLength: 5 }),
      fc.option(
        fc.string({ maxLength: 40 }).map((s) => `?${s.replace(/#/g, "%23")}`),
        { nil: "" },
      ),
      fc.boolean(),
    )
    .map(([prefix, segments, query, trailingSlash]) => {
      const path = [prefix.replace(/\/$/, ""), ...segments].join("/");
      return `${path}${trailingSlash ? "/" : ""}${query}` || "/";
    });
}

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/).map((v) => v.trim());

/** Raw junk: any method, path, headers and body, with or without valid credentials. */
export function junkRequest(
  prefixes: readonly string[],
  credentials: Credentials,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method,
      path: junkPath(prefixes),
      auth: fc.oneof(
        fc.constant(credentials.tenant),
        fc.constant(credentials.admin),
        fc.constant(credentials.platform ?? credentials.tenant),
        badAuth(credentials),
      ),
      contentType: fc.option(
        fc.oneof(headerValue, fc.constantFrom("application/json", "text/plain", "application/octet-stream")),
        { nil: null },
      ),
      extra: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
      body: fc.option(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }),
          fc.json({ maxDepth: 3 }),
          badValue.map((v) => JSON.stringify(v) ?? ""),
        ),
        { nil: undefined },
      ),
    })
    .map(({ method, path, auth, contentType, extra, body }) => {
      const headers: Record<string, string> = { ...extra };
      if (auth !== null) headers.authorization = auth;
      if (contentType !== null) headers["content-type"] = contentType;
      const upper = method.toUpperCase();
      return {
        what: "junk",
        method,
        path,
        headers,
        body: upper === "GET" || upper === "HEAD" ? undefined : body,
      };
    });
}

export function toRequest(base: string, request: FuzzRequest): Request {
  return new Request(`${base}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
}

/** What an answer must be: its error shape, and its success body where the route is known. */
export interface Expectation {
  version: FuzzVersion;
  ok?: FuzzRoute["ok"];
}

function errorShapeProblem(body: unknown, status: number, version: FuzzVersion): string | null {
  if (version === "v3") {
    const problem = v3ProblemSchema.safeParse(body);
    if (problem.success && problem.data.status === status) return null;
    return `not a v3 problem for ${status}`;
  }
  if (version === "v1") {
    const v1 = v1ErrorSchema.safeParse(body);
    if (v1.success && v1.data.error_code === status) return null;
    if ((status === 401 || status === 403) && v1UnauthorizedErrorSchema.safeParse(body).success) return null;
    return `not a v1 error body for ${status}`;
  }
  const v2 = v2ErrorSchema.safeParse(body);
  if (v2.success && v2.data.code === status && v2.data.status === reasonPhrase(status)) return null;
  return `not a v2 error body for ${status}`;
}

/**
 * What is wrong with an answer, or null: a 5xx, a body that is not JSON in its version's shape
 * (errors) or its route's (successes), or a secret anywhere in it.
 */
export async function answerProblem(
  request: FuzzRequest,
  response: Response,
  expected: Expectation,
  secrets: readonly string[],
): Promise<string | null> {
  // Decoded from bytes: Response.text() warns on every non-text type (PEM files, NDJSON).
  const text = new TextDecoder().decode(await response.arrayBuffer());
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  for (const secret of secrets)
    if (text.includes(secret) || headers.includes(secret)) return "a secret in the answer";
  const { status } = response;
  if (status >= 500) return `a ${status}`;
  if (request.mustRefuse && status < 400) return `a ${status} for a lone surrogate (a 4xx expected)`;
  if (status < 200 || (status >= 300 && status < 400)) return `a ${status}`;
  // HEAD answers carry no body; a 204 carries none by definition, nor a success the route
  // declares without one (the Platform's 201 to an invitation).
  if (request.method.toUpperCase() === "HEAD" || status === 204 || (status < 300 && expected.ok === "empty"))
    return text === "" ? null : `a body on a ${status} ${request.method}`;
  if (status < 300 && expected.ok === "file") return null;
  const contentType = response.headers.get("content-type") ?? "";
  // v3: errors are problem+json; successes JSON in the route's own media type (`...+json`).
  const json =
    expected.version === "v3"
      ? status >= 400
        ? // The origin answers a 401 in the JSON the SDK reads as AuthenticationError.
          contentType === V3_PROBLEM_MEDIA_TYPE || (status === 401 && contentType === "application/json")
        : /^application\/([\w.-]+\+)?json$/.test(contentType)
      : contentType.startsWith("application/json");
  if (!json) return `content-type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "a body that is not JSON";
  }
  if (status >= 400) return errorShapeProblem(body, status, expected.version);
  if (expected.ok === undefined || typeof expected.ok === "string") return null;
  const parsed = expected.ok.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`);
  return `a ${status} body not in the route's shape (${issues.join("; ")}): ${text.slice(0, 300)}`;
}

/** The run's seed: FUZZ_SEED when set (to replay a failure), else a fresh one. */
export function fuzzSeed(configured: string | undefined): number {
  const seed = configured ? Number(configured) : Date.now() % 2 ** 31;
  if (!Number.isSafeInteger(seed)) throw new Error("FUZZ_SEED must be an integer");
  return seed;
}

/** A worker under fuzzing, as the shared suite (`fuzzRoutes`) drives it. */
export interface FuzzTarget {
  /** "edge" or "origin", for the printed figures. */
  name: string;
  base: string;
  /** Sends one request through the worker; its background work is done when this resolves. */
  send(request: Request): Promise<Response>;
  /** What no answer may carry (upstream credentials, the admin token). */
  secrets: readonly string[];
  /** Stored rows changed since the last call (after background work settled): `db.table: …`. */
  changes(): Promise<string[]>;
}

export interface FuzzPlan {
  routes: readonly FuzzRoute[];
  samples: Samples;
  credentials: Credentials;
  /** Cases per route (valid, mutated) and of raw junk in all. */
  cases: { valid: number; mutated: number; junk: number };
  /**
   * Requests sent at once: one property run is a batch, D1 is compared after each. Junk batches
   * may be larger: nearly all of it is refused before any work.
   */
  batch: { routes: number; junk: number };
  seed: number;
  junk: fc.Arbitrary<FuzzRequest>;
  junkExpectation(request: FuzzRequest): Expectation;
  /** How to replay a run, printed with a failure. */
  replay: string;
}

interface Sent {
  request: FuzzRequest;
  status: number;
}

const describeSent = ({ request, status }: Sent) =>
  `${request.what}: ${request.method} ${request.path.slice(0, 200)} → ${status}`;

/**
 * The cases a plan makes: its routes' valid and mutated ones, one lone surrogate in each string
 * field of each route, and the junk.
 */
export function plannedCases(plan: FuzzPlan): {
  valid: number;
  mutated: number;
  surrogate: number;
  junk: number;
} {
  const whole = (n: number, batch: number) => Math.ceil(n / batch) * batch;
  return {
    valid: plan.routes.length * whole(plan.cases.valid, plan.batch.routes),
    mutated: plan.routes.length * whole(plan.cases.mutated, plan.batch.routes),
    surrogate: plan.routes.reduce((sum, route) => sum + surrogateFieldCount(route), 0),
    junk: whole(plan.cases.junk, plan.batch.junk),
  };
}

/**
 * The fuzz suite of one worker, as tests: valid requests to every route, the same with one field
 * made bad (a lone surrogate in a string field among the ways), a lone surrogate in each string
 * field of each route in turn, and raw junk; then a test that every planned case ran, which
 * prints the figures.
 *
 * One fast-check run sends a batch of `plan.batch` generated requests at once. Every answer is
 * checked on its own: no 5xx; JSON in the route version's error shape, or the route's own success
 * shape; no secret; a 4xx for a lone surrogate. After the batch the databases are compared (`target.changes()`): a change is
 * a failure when every request of the batch was refused; when some were accepted (which may
 * write), each refused one is sent again alone and must change nothing. A failure names the batch
 * and fast-check gives the property's seed and path; `plan.replay` replays the run.
 */
export function fuzzRoutes(target: FuzzTarget, plan: FuzzPlan): void {
  const sent = { valid: 0, mutated: 0, surrogate: 0, junk: 0, batches: 0, resent: 0 };

  async function send(request: FuzzRequest, expected: Expectation): Promise<Sent> {
    const response = await target.send(toRequest(target.base, request));
    const problem = await answerProblem(request, response, expected, target.secrets);
    const result = { request, status: response.status };
    if (problem !== null) throw new Error(`${problem}: ${describeSent(result)}`);
    return result;
  }

  async function batch(
    kind: "valid" | "mutated" | "surrogate" | "junk",
    cases: ReadonlyArray<{ request: FuzzRequest; expected: Expectation }>,
  ): Promise<void> {
    const results = await Promise.all(cases.map(({ request, expected }) => send(request, expected)));
    sent[kind] += cases.length;
    sent.batches += 1;
    const changed = await target.changes();
    if (changed.length === 0) return;
    const refused = results.filter((r) => r.status >= 400);
    if (refused.length === 0) return;
    const listed = () => results.map((r) => `\n  ${describeSent(r)}`).join("");
    if (refused.length === results.length)
      throw new Error(`a batch of refused requests changed stored rows (${changed.join(", ")}):${listed()}`);
    // Some were accepted: each refused one again alone, to see which (if any) writes.
    for (const { request } of refused) {
      sent.resent += 1;
      const again = await send(
        request,
        cases.find((c) => c.request === request)?.expected ?? { version: "v2" },
      );
      const alone = await target.changes();
      if (again.status >= 400 && alone.length > 0)
        throw new Error(`a refused ${describeSent(again)} changed stored rows: ${alone.join(", ")}`);
    }
  }

  const ofBatch = <T>(arbitrary: fc.Arbitrary<T>, size: number) =>
    fc.array(arbitrary, { minLength: size, maxLength: size });
  /** Each property's own seed, fixed by its place (so `-t` or a changed route list replays the rest). */
  const options = (numRuns: number, place: number) => ({
    numRuns,
    seed: plan.seed + place,
    endOnFailure: true,
  });

  for (const [k, kind] of (["valid", "mutated"] as const).entries()) {
    it(`${kind} requests to every route: no 5xx, JSON in the route's shape, no refused write`, async () => {
      for (const [r, route] of plan.routes.entries()) {
        const make = kind === "valid" ? validRequest : mutatedRequest;
        const started = Date.now();
        await fc.assert(
          fc.asyncProperty(
            ofBatch(make(route, plan.samples, plan.credentials), plan.batch.routes),
            (requests) =>
              batch(
                kind,
                requests.map((request) => ({
                  request,
                  expected: { version: route.version, ok: request.routeMayChange ? undefined : route.ok },
                })),
              ),
          ),
          options(Math.ceil(plan.cases[kind] / plan.batch.routes), 1_000 * k + r),
        );
        const took = Date.now() - started;
        // The slow routes, so a run that nears its time budget shows where the time went.
        if (took > 5_000)
          console.log(`${target.name} fuzz: ${kind} ${route.method} ${route.path} took ${took} ms`);
      }
    }, 600_000);
  }

  it("a lone surrogate in every string field of every route: a 4xx in the route's shape, nothing stored", async () => {
    for (const [r, route] of plan.routes.entries()) {
      const requests = surrogateRequests(route, plan.samples, plan.credentials, plan.seed + 3_000 + r);
      for (let i = 0; i < requests.length; i += plan.batch.routes) {
        await batch(
          "surrogate",
          requests
            .slice(i, i + plan.batch.routes)
            .map((request) => ({ request, expected: { version: route.version } })),
        );
      }
    }
  }, 600_000);

  it("raw junk: any method, path, header and body", async () => {
    await fc.assert(
      fc.asyncProperty(ofBatch(plan.junk, plan.batch.junk), (requests) =>
        batch(
          "junk",
          requests.map((request) => ({ request, expected: plan.junkExpectation(request) })),
        ),
      ),
      options(Math.ceil(plan.cases.junk / plan.batch.junk), 2_000),
    );
  }, 600_000);

  it("ran every planned case", () => {
    const planned = plannedCases(plan);
    const total = sent.valid + sent.mutated + sent.surrogate + sent.junk;
    console.log(
      `${target.name} fuzz: ${total} cases (valid ${sent.valid}, mutated ${sent.mutated}, lone surrogates ${sent.surrogate}, junk ${sent.junk}) ` +
        `to ${plan.routes.length} routes in ${sent.batches} batches (${plan.batch.routes} requests a route batch, ${plan.batch.junk} a junk one), D1 compared after each; ` +
        `${sent.resent} refused requests re-sent alone (their batch also had accepted ones that wrote)`,
    );
    expect({ valid: sent.valid, mutated: sent.mutated, surrogate: sent.surrogate, junk: sent.junk }).toEqual(
      planned,
    );
  });
}
