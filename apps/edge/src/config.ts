import { CACHE_INDEXES, type CacheIndex, JOB_MAX_PAGES_LIMIT, tenantPeriodSchema } from "@scangate/core";
import { z } from "zod";
import type { Env } from "./env";

/** One upstream account of the pool. Never logged, never echoed. */
const upstreamCredentialSchema = z
  .strictObject({ api_id: z.string().min(1), api_secret: z.string().min(1) })
  .transform((c) => ({ apiId: c.api_id, apiSecret: c.api_secret }));
export type UpstreamCredential = Readonly<z.infer<typeof upstreamCredentialSchema>>;
const UPSTREAM_CREDENTIALS_EXAMPLE = '[{"api_id":"...","api_secret":"..."}]';

/**
 * One Platform (/v3) credential of the pool: a personal access token and the organization it
 * acts for. Never logged, never echoed.
 */
const platformCredentialSchema = z
  .strictObject({ token: z.string().min(1), organization_id: z.string().min(1).max(200) })
  .transform((c) => ({ token: c.token, organizationId: c.organization_id }));
export type PlatformCredential = Readonly<z.infer<typeof platformCredentialSchema>>;
const PLATFORM_CREDENTIALS_EXAMPLE = '[{"token":"...","organization_id":"..."}]';

/** Where requests go: the ORIGIN service binding, or a URL over the internet. */
type UpstreamTarget = { readonly kind: "service" } | { readonly kind: "url"; readonly baseUrl: string };

/**
 * Where /v3 goes, with which credentials: PLATFORM_URL over the internet, or the ORIGIN service
 * binding when the legacy upstream is the origin too (the local default).
 */
export interface PlatformUpstreamConfig {
  readonly target: UpstreamTarget;
  readonly credentials: readonly PlatformCredential[];
}

/** A burst tier: a Workers Rate Limiting binding (its limit/period mirror wrangler.jsonc), or none. */
export type RateTier =
  | { readonly unlimited: true }
  | {
      readonly unlimited?: false;
      readonly binding: string;
      readonly limit: number;
      readonly periodSeconds: number;
    };

/** The tier called `name`, looked up by own key: an inherited name such as `constructor` is no tier. */
export function rateTierNamed(tiers: Readonly<Record<string, RateTier>>, name: string): RateTier | undefined {
  return Object.hasOwn(tiers, name) ? tiers[name] : undefined;
}

/** Why `name` cannot be a tenant's tier, or undefined when it is one of the configured tiers. */
export function unknownTierProblem(
  tiers: Readonly<Record<string, RateTier>>,
  name: string,
): string | undefined {
  return rateTierNamed(tiers, name)
    ? undefined
    : `tier: unknown tier "${name}" (one of ${Object.keys(tiers).join(", ")})`;
}

export const DEFAULT_RATE_TIERS: Readonly<Record<string, RateTier>> = {
  low: { binding: "RATE_LIMIT_LOW", limit: 10, periodSeconds: 60 },
  standard: { binding: "RATE_LIMIT_STANDARD", limit: 60, periodSeconds: 60 },
  high: { binding: "RATE_LIMIT_HIGH", limit: 600, periodSeconds: 60 },
  unlimited: { unlimited: true },
};

/**
 * Account reads (GET /api/v1/account) count against a small bucket of their own instead of the
 * tier's, so a tenant at its burst limit can still read why it is refused. Bounded for every
 * tier, so it is no way around the burst limit (mirrors its `ratelimits` entry in wrangler.jsonc).
 */
export const ACCOUNT_READ_LIMIT = {
  binding: "RATE_LIMIT_ACCOUNT_READS",
  limit: 20,
  periodSeconds: 60,
} as const;

const HOUR = 3600;

const DEFAULT_TTL_SECONDS: Record<CacheIndex, number> = {
  // Certificates never change once issued; hosts and websites are rescanned daily.
  certificates: 7 * 24 * HOUR,
  ipv4: HOUR,
  websites: HOUR,
  hosts: HOUR,
  // A host's names and a certificate's hosts follow the daily rescans too.
  host_names: HOUR,
  certificate_hosts: HOUR,
};

/** Vars come as strings from .dev.vars/secrets or as JSON values from wrangler.jsonc. */
const fromJson = (value: unknown) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return Symbol.for("invalid-json");
  }
};
const blankAsUnset = (value: unknown) => (value === "" ? undefined : value);
const jsonVar = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => fromJson(blankAsUnset(value)),
    z.custom((v) => v !== Symbol.for("invalid-json"), "is not valid JSON").pipe(schema),
  );
const intVar = (min: number, max: number, fallback: number) =>
  z.preprocess(blankAsUnset, z.coerce.number().int().min(min).max(max).default(fallback));
const boolVar = (fallback: boolean) =>
  z.preprocess(
    blankAsUnset,
    z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).default(fallback),
  );

const urlVar = () =>
  z.preprocess(blankAsUnset, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional());
/** A secret holding a JSON array of at least one credential. */
const credentialsVar = <T extends z.ZodType>(credential: T, example: string) =>
  jsonVar(
    z
      .array(credential, { error: `must be a JSON array like ${example}` })
      .min(1, "must hold at least one credential")
      .optional(),
  );

const rateTierSchema = z.union([
  z.strictObject({ unlimited: z.literal(true) }),
  z
    .strictObject({
      binding: z.string().regex(/^RATE_LIMIT_[A-Z0-9_]+$/, "binding must be named RATE_LIMIT_<NAME>"),
      limit: z.number().int().min(1),
      period: z.union([z.literal(10), z.literal(60)]),
    })
    .transform((tier) => ({ binding: tier.binding, limit: tier.limit, periodSeconds: tier.period })),
]);

const envSchema = z.object({
  ADMIN_TOKEN: z
    .string({ error: "is not set (a secret: `wrangler secret put ADMIN_TOKEN`, or .dev.vars locally)" })
    .min(32, "must be at least 32 characters (use a random token)"),
  UPSTREAM_URL: urlVar(),
  UPSTREAM_API: z.preprocess(
    blankAsUnset,
    z.enum(["legacy", "platform"], { error: 'must be "legacy" or "platform"' }).default("legacy"),
  ),
  // Required unless UPSTREAM_API is platform (checked below, with the same message).
  UPSTREAM_CREDENTIALS: credentialsVar(upstreamCredentialSchema, UPSTREAM_CREDENTIALS_EXAMPLE),
  UPSTREAM_TIMEOUT_MS: intVar(1, 600_000, 90_000),
  PLATFORM_URL: urlVar(),
  PLATFORM_CREDENTIALS: credentialsVar(platformCredentialSchema, PLATFORM_CREDENTIALS_EXAMPLE),
  CACHE_TTL_SECONDS: jsonVar(z.partialRecord(z.enum(CACHE_INDEXES), z.number().int().min(0)).optional()),
  CACHE_NEGATIVE_TTL_SECONDS: intVar(0, 30 * 24 * HOUR, 300),
  CACHE_STALE_WHILE_REVALIDATE_SECONDS: intVar(0, 30 * 24 * HOUR, HOUR),
  CACHE_STALE_IF_ERROR_SECONDS: intVar(0, 365 * 24 * HOUR, 7 * 24 * HOUR),
  CACHE_MAX_ROWS: intVar(1, 100_000_000, 200_000),
  CACHE_HITS_CHARGED: boolVar(false),
  CACHE_MEMORY_HOLD_MS: intVar(0, 5000, 5000),
  CACHE_MEMORY_MAX_BYTES: intVar(0, 64 * 1024 * 1024, 16 * 1024 * 1024),
  DEFAULT_ALLOWANCE: intVar(1, 1_000_000_000, 250),
  DEFAULT_PERIOD: z.preprocess(blankAsUnset, tenantPeriodSchema.default("monthly")),
  DEFAULT_TIER: z.preprocess(blankAsUnset, z.string().default("standard")),
  RATE_TIERS: jsonVar(z.record(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/), rateTierSchema).optional()),
  AUTH_CACHE_TTL_MS: intVar(0, 5000, 5000),
  USAGE_FLUSH_DELAY_MS: intVar(0, 60_000, 1000),
  D1_STATEMENTS_HEADER: boolVar(false),
  JOB_MAX_PAGES: intVar(1, JOB_MAX_PAGES_LIMIT, 100),
});

/** The name of each var and secret config.ts reads. */
export type EdgeVar = keyof typeof envSchema.shape;

/** Validates the worker's vars, secrets and bindings; problems name the variable and never its value. */
export function loadConfig(env: Env): { ok: true; config: EdgeConfig } | { ok: false; problems: string[] } {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`),
    };
  }
  const vars = parsed.data;
  const problems: string[] = [];
  const platformOnly = vars.UPSTREAM_API === "platform";
  if (!platformOnly && !vars.UPSTREAM_CREDENTIALS) {
    problems.push(
      `UPSTREAM_CREDENTIALS: is not set (a secret: JSON array like ${UPSTREAM_CREDENTIALS_EXAMPLE})`,
    );
  }
  if (!platformOnly && !vars.UPSTREAM_URL && !env.ORIGIN) {
    problems.push("UPSTREAM_URL: is not set and there is no ORIGIN service binding (set one of them)");
  }
  if (vars.PLATFORM_URL && !vars.PLATFORM_CREDENTIALS) {
    problems.push(
      `PLATFORM_CREDENTIALS: is not set but PLATFORM_URL is (a secret: JSON array like ${PLATFORM_CREDENTIALS_EXAMPLE})`,
    );
  }
  // Without PLATFORM_URL the /v3 upstream is the origin, and only when the legacy one is too: an
  // edge in front of the public legacy API never sends Platform tokens to a leftover binding.
  const platformTarget: UpstreamTarget | null = vars.PLATFORM_URL
    ? { kind: "url", baseUrl: vars.PLATFORM_URL.replace(/\/+$/, "") }
    : !vars.UPSTREAM_URL && env.ORIGIN
      ? { kind: "service" }
      : null;
  if (platformOnly && !vars.PLATFORM_CREDENTIALS) {
    problems.push(
      'UPSTREAM_API: is "platform" but no Platform upstream is configured (set the PLATFORM_CREDENTIALS secret, and PLATFORM_URL unless the ORIGIN service binding is the upstream)',
    );
  } else if (platformOnly && !platformTarget) {
    problems.push(
      'UPSTREAM_API: is "platform" but PLATFORM_URL is not set (e.g. https://api.platform.censys.io)',
    );
  }
  if (vars.PLATFORM_CREDENTIALS && !platformTarget) {
    problems.push(
      "PLATFORM_URL: is not set but PLATFORM_CREDENTIALS is (e.g. https://api.platform.censys.io)",
    );
  }
  // No prototype, so even a lookup written as `name in tiers` or `tiers[name]` sees only the tiers.
  const rateTiers: Record<string, RateTier> = Object.assign(
    Object.create(null) as Record<string, RateTier>,
    vars.RATE_TIERS ?? DEFAULT_RATE_TIERS,
  );
  for (const [name, tier] of Object.entries(rateTiers)) {
    if (!tier.unlimited && !env[tier.binding as `RATE_LIMIT_${string}`]) {
      problems.push(
        `RATE_TIERS.${name}: binding ${tier.binding} is not declared under "ratelimits" in wrangler.jsonc`,
      );
    }
  }
  if (!rateTierNamed(rateTiers, vars.DEFAULT_TIER)) {
    problems.push(
      `DEFAULT_TIER: "${vars.DEFAULT_TIER}" is not one of the tiers (${Object.keys(rateTiers).join(", ")})`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  const platform =
    platformTarget && vars.PLATFORM_CREDENTIALS
      ? { target: platformTarget, credentials: vars.PLATFORM_CREDENTIALS }
      : null;
  return { ok: true, config: configFrom(vars, platform, rateTiers) };
}

/** The edge's settings: what `configFrom` makes of vars that passed every check of `loadConfig`. */
export type EdgeConfig = ReturnType<typeof configFrom>;

function configFrom(
  vars: z.output<typeof envSchema>,
  platform: PlatformUpstreamConfig | null,
  rateTiers: Readonly<Record<string, RateTier>>,
) {
  const upstream: UpstreamTarget = vars.UPSTREAM_URL
    ? { kind: "url", baseUrl: vars.UPSTREAM_URL.replace(/\/+$/, "") }
    : { kind: "service" };
  return {
    adminToken: vars.ADMIN_TOKEN,
    /**
     * What the legacy routes (/api/v1, /api/v2) are answered from: `legacy`, the upstream's own
     * legacy API (UPSTREAM_URL or the origin); `platform`, the Platform upstream alone, the edge
     * translating what has a Platform equivalent and answering 501 for the rest.
     */
    upstreamApi: vars.UPSTREAM_API,
    /** The ORIGIN service binding, or UPSTREAM_URL. */
    upstream,
    upstreamCredentials: (vars.UPSTREAM_CREDENTIALS ?? []) as readonly UpstreamCredential[],
    upstreamTimeoutMs: vars.UPSTREAM_TIMEOUT_MS,
    /** The /v3 upstream; null when none is configured (/v3 then answers a 502 that says so). */
    platform,
    cache: {
      ttlSeconds: { ...DEFAULT_TTL_SECONDS, ...vars.CACHE_TTL_SECONDS } as Readonly<
        Record<CacheIndex, number>
      >,
      negativeTtlSeconds: vars.CACHE_NEGATIVE_TTL_SECONDS,
      staleWhileRevalidateSeconds: vars.CACHE_STALE_WHILE_REVALIDATE_SECONDS,
      staleIfErrorSeconds: vars.CACHE_STALE_IF_ERROR_SECONDS,
      maxRows: vars.CACHE_MAX_ROWS,
      /** Whether a cache hit costs quota like an upstream call (default: free). */
      hitsCharged: vars.CACHE_HITS_CHARGED,
      /** The per-isolate memory tier in front of D1: how long it holds a row, and its size bound. */
      memoryHoldMs: vars.CACHE_MEMORY_HOLD_MS,
      memoryMaxChars: vars.CACHE_MEMORY_MAX_BYTES,
    },
    tenantDefaults: {
      allowance: vars.DEFAULT_ALLOWANCE,
      period: vars.DEFAULT_PERIOD,
      tier: vars.DEFAULT_TIER,
    },
    rateTiers,
    /** How long an authenticated tenant is trusted from memory; at most 5 s (issue 5). */
    authCacheTtlMs: vars.AUTH_CACHE_TTL_MS,
    usageFlushDelayMs: vars.USAGE_FLUSH_DELAY_MS,
    /** Answer each API request with `X-D1-Statements`: the D1 statements it ran before answering (for the bench). */
    statementsHeader: vars.D1_STATEMENTS_HEADER,
    /**
     * The most pages of Platform search results a query or export job may read, unless its tenant
     * has its own (`job_max_pages`): what it holds in credits before it starts (UPSTREAM_API=platform).
     */
    jobMaxPages: vars.JOB_MAX_PAGES,
  } as const;
}
