// The workers as production runs them: workerd serving each worker's own socket
// (miniflare's unsafeDirectSockets), no Node proxy and no miniflare entry worker in the path.
// Bindings come from each app's wrangler.jsonc (wrangler's own reading of it); the bench adds
// only its secrets and its burst tier, and state lives under packages/bench/.state.
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { Miniflare, type WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { BARE_DIR, EDGE_DIR, ORIGIN_DIR, REPO_ROOT, WRANGLER_BIN } from "./paths";
import { run } from "./processes";

export const ORIGIN_NAME = "scangate-origin";
export const EDGE_NAME = "scangate-edge";
/** A second edge of the same bundle with UPSTREAM_API=platform: the legacy API from the origin's /v3 alone. */
export const PLATFORM_EDGE_NAME = "scangate-edge-platform";
/** Its job queue (the legacy edge's wrangler.jsonc queue has that edge as its consumer). */
const PLATFORM_JOBS_QUEUE = "scangate-edge-platform-jobs";
export const BARE_NAME = "scangate-bench-bare";

export type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

/**
 * The bench's own secrets: the origin account the edge calls with (its API ID and secret, and its
 * Platform personal access token: the edge's /v3 pool of one), and the admin token.
 */
export interface BenchSecrets {
  readonly originApiId: string;
  readonly originApiSecret: string;
  readonly originPlatformToken: string;
  readonly adminToken: string;
}

/** The Platform organization and user of the bench's origin account (fixed: the origin keeps its credits by organization). */
export const BENCH_ORGANIZATION_ID = "b3e4c5d6-0000-4000-8000-00000000be0c";
const BENCH_USER_ID = "b3e4c5d6-0000-4000-8000-00000000be0d";

/** Builds the bench's own worker exactly as a deploy would (`wrangler deploy --dry-run`). */
export async function buildBareWorker(): Promise<void> {
  await run(WRANGLER_BIN, ["deploy", "--dry-run", "--outdir", "dist"], BARE_DIR);
}

/** The apps' bundles must be built (the root `pnpm bench` builds them first, through turbo). */
export function missingBundles(): string[] {
  return [ORIGIN_DIR, EDGE_DIR]
    .map((dir) => path.join(dir, "dist", "index.js"))
    .filter((file) => !existsSync(file))
    .map((file) => path.relative(REPO_ROOT, file));
}

/** Applies the edge's migrations to the bench state (the origin's seed applies its own). */
export async function migrateEdge(stateDir: string): Promise<void> {
  await run(WRANGLER_BIN, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], EDGE_DIR);
}

/** Miniflare's `ratelimits` option (its own type is not exported in a usable form). */
type RateLimits = Record<string, { simple: { limit: number; period?: 10 | 60 } }>;

/** The parts of Miniflare's worker options the bench reads or sets itself; the rest passes through. */
type ConfiguredWorker = Record<string, unknown> & {
  bindings: Record<string, unknown>;
  ratelimits?: RateLimits;
  d1Databases?: Record<string, unknown>;
};

/**
 * Wrangler's reading of a wrangler.jsonc as Miniflare options, with the file's own `vars` as the
 * only plain bindings: a developer's `.dev.vars` beside it (which wrangler would merge in, and
 * announce on stdout) does not reach the bench.
 */
function configuredWorker(configPath: string): ConfiguredWorker {
  const level = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = "warn";
  try {
    const options = unstable_getMiniflareWorkerOptions(configPath) as unknown as {
      workerOptions: Record<string, unknown>;
    };
    const config = unstable_readConfig({ config: configPath }) as unknown as {
      vars: Record<string, unknown>;
    };
    return { ...options.workerOptions, bindings: { ...config.vars } };
  } finally {
    if (level === undefined) delete process.env.WRANGLER_LOG;
    else process.env.WRANGLER_LOG = level;
  }
}

/** A worker of a wrangler.jsonc, running its built bundle on a direct socket of its own. */
function builtWorker(
  appDir: string,
  name: string,
  bindings: Record<string, string>,
  extra: Partial<ConfiguredWorker> = {},
): WorkerOptions {
  const configured = configuredWorker(path.join(appDir, "wrangler.jsonc"));
  return {
    ...configured,
    name,
    modules: true,
    scriptPath: path.join(appDir, "dist", "index.js"),
    modulesRoot: path.join(appDir, "dist"),
    bindings: { ...configured.bindings, ...bindings },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    ...extra,
  } as WorkerOptions;
}

/**
 * The bench's burst tier: a real Rate Limiting binding (so a request pays for the limiter as a
 * tenant on any limited tier does) whose limit the load cannot reach. The edge reads its tiers
 * from RATE_TIERS, and a tier's binding only has to be declared for the worker.
 */
export const BENCH_TIER = "bench";
const BENCH_RATE_BINDING = "RATE_LIMIT_BENCH";
const BENCH_RATE_LIMIT = 1_000_000_000;

function benchTierBindings(ratelimits: RateLimits | undefined): {
  vars: Record<string, string>;
  ratelimits: RateLimits;
} {
  return {
    vars: {
      RATE_TIERS: JSON.stringify({
        [BENCH_TIER]: { binding: BENCH_RATE_BINDING, limit: BENCH_RATE_LIMIT, period: 60 },
      }),
      DEFAULT_TIER: BENCH_TIER,
    },
    ratelimits: { ...ratelimits, [BENCH_RATE_BINDING]: { simple: { limit: BENCH_RATE_LIMIT, period: 60 } } },
  };
}

export interface ClusterOptions {
  /** Another D1 database for the edge (by id, in the same state folder): the cache-size runs. */
  readonly edgeDatabaseId?: string;
  /** CACHE_MAX_ROWS of the edge, when the run keeps more documents than the default cap. */
  readonly cacheMaxRows?: number;
  /** CACHE_MEMORY_HOLD_MS of the edge; 0 sends every cache read to D1. */
  readonly memoryHoldMs?: number;
  /** Opens the V8 inspector of both workers' isolates (heap, CPU profiles): `Cluster.inspectorUrl`. */
  readonly inspect?: boolean;
}

export interface Cluster {
  readonly originUrl: string;
  readonly edgeUrl: string;
  /** The edge whose upstream is the origin's Platform API alone (`UPSTREAM_API=platform`). */
  readonly platformEdgeUrl: string;
  readonly originDb: D1Database;
  readonly edgeDb: D1Database;
  /** Miniflare's inspector proxy, when the cluster was started with `inspect`. */
  readonly inspectorUrl?: URL;
  dispose(): Promise<void>;
}

/** Where workerd's own output goes (worker console lines would otherwise interleave with the table). */
function runtimeLog(stateDir: string) {
  mkdirSync(stateDir, { recursive: true });
  const log = createWriteStream(path.join(stateDir, "workerd.log"), { flags: "a" });
  return (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
    stdout.pipe(log, { end: false });
    stderr.pipe(log, { end: false });
  };
}

/** Origin and edge in one workerd, the edge's ORIGIN service binding pointing at the origin. */
export async function startCluster(
  stateDir: string,
  secrets: BenchSecrets,
  options: ClusterOptions = {},
): Promise<Cluster> {
  const accounts = JSON.stringify([
    {
      api_id: secrets.originApiId,
      api_secret: secrets.originApiSecret,
      login: "bench",
      email: "bench@scangate.local",
      // Bench runs add up in the persisted state; a monthly allowance that never runs out.
      allowance: 1_000_000_000_000,
      personal_access_token: secrets.originPlatformToken,
      organization_id: BENCH_ORGANIZATION_ID,
      user_id: BENCH_USER_ID,
      organization_name: "Scangate Bench",
      // Granted once, when the state first sees the organization: credits that never run out either.
      credits: 1_000_000_000_000,
    },
  ]);
  const edgeConfig = configuredWorker(path.join(EDGE_DIR, "wrangler.jsonc"));
  const tier = benchTierBindings(edgeConfig.ratelimits);
  const edgeVars = {
    ADMIN_TOKEN: secrets.adminToken,
    UPSTREAM_CREDENTIALS: JSON.stringify([
      { api_id: secrets.originApiId, api_secret: secrets.originApiSecret },
    ]),
    // The /v3 pool: the same origin account's personal access token (the ORIGIN binding is the upstream).
    PLATFORM_CREDENTIALS: JSON.stringify([
      { token: secrets.originPlatformToken, organization_id: BENCH_ORGANIZATION_ID },
    ]),
    ...tier.vars,
    // A request that asks is told how many D1 statements it ran (edge-miss-collapsed and
    // edge-request-counts ask), and by an edge that counts them, how many ledger calls.
    D1_STATEMENTS_HEADER: "true",
  };
  const mf = new Miniflare({
    defaultPersistRoot: path.join(stateDir, "v3"),
    handleRuntimeStdio: runtimeLog(stateDir),
    ...(options.inspect ? { inspectorPort: 0 } : {}),
    workers: [
      builtWorker(
        ORIGIN_DIR,
        ORIGIN_NAME,
        { ORIGIN_ACCOUNTS: accounts },
        options.inspect ? { unsafeInspectorProxy: true } : {},
      ),
      builtWorker(
        EDGE_DIR,
        EDGE_NAME,
        {
          ...edgeVars,
          ...(options.cacheMaxRows !== undefined ? { CACHE_MAX_ROWS: String(options.cacheMaxRows) } : {}),
          ...(options.memoryHoldMs !== undefined
            ? { CACHE_MEMORY_HOLD_MS: String(options.memoryHoldMs) }
            : {}),
        },
        {
          ratelimits: tier.ratelimits,
          ...(options.inspect ? { unsafeInspectorProxy: true } : {}),
          ...(options.edgeDatabaseId !== undefined
            ? { d1Databases: { DB: { id: options.edgeDatabaseId } } }
            : {}),
        },
      ),
      // Same D1 and ledger objects (so the same tenants and balances), its own queue and job consumer.
      builtWorker(
        EDGE_DIR,
        PLATFORM_EDGE_NAME,
        { ...edgeVars, UPSTREAM_API: "platform" },
        {
          ratelimits: tier.ratelimits,
          // The first edge's ledger objects: one balance per tenant, whichever edge it calls.
          durableObjects: { LEDGER: { className: "TenantLedger", scriptName: EDGE_NAME } },
          queueProducers: { JOBS: { queueName: PLATFORM_JOBS_QUEUE } },
          queueConsumers: { [PLATFORM_JOBS_QUEUE]: { maxBatchSize: 4, maxBatchTimeout: 1 } },
        },
      ),
    ],
  });
  try {
    await mf.ready;
    const [origin, edge, platformEdge, originDb, edgeDb] = await Promise.all([
      mf.unsafeGetDirectURL(ORIGIN_NAME),
      mf.unsafeGetDirectURL(EDGE_NAME),
      mf.unsafeGetDirectURL(PLATFORM_EDGE_NAME),
      mf.getD1Database("DB", ORIGIN_NAME),
      mf.getD1Database("DB", EDGE_NAME),
    ]);
    return {
      originUrl: origin.origin,
      edgeUrl: edge.origin,
      platformEdgeUrl: platformEdge.origin,
      originDb,
      edgeDb,
      ...(options.inspect ? { inspectorUrl: await mf.getInspectorURL() } : {}),
      dispose: () => mf.dispose(),
    };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

export interface BareWorker {
  readonly url: string;
  dispose(): Promise<void>;
}

/** An answer of the origin's, as the bare worker sends it again. */
export interface StoredAnswer {
  readonly body: string;
  readonly contentType: string;
}

/**
 * What the bare worker answers: one document, and the documents of a bulk answer, by key; and the
 * origin's /v3 answers for the same certificate and for a bulk of the same certificates.
 */
export interface ReferenceDocuments {
  readonly view: { readonly id: string; readonly body: string };
  readonly bulk: ReadonlyArray<{ readonly id: string; readonly body: string }>;
  readonly v3Asset: StoredAnswer;
  readonly v3Bulk: StoredAnswer;
}

/**
 * The reference: a bare Hono worker answering the view document (GET /), or reading it (GET /d1)
 * or the bulk documents (GET /d1-bulk) from its own D1 by primary key, or the stored /v3 answers
 * (GET /v3-asset, /v3-bulk), in a workerd of its own.
 */
export async function startBare(stateDir: string, documents: ReferenceDocuments): Promise<BareWorker> {
  const mf = new Miniflare({
    defaultPersistRoot: path.join(stateDir, "v3"),
    handleRuntimeStdio: runtimeLog(stateDir),
    workers: [
      {
        ...configuredWorker(path.join(BARE_DIR, "wrangler.jsonc")),
        name: BARE_NAME,
        modules: true,
        scriptPath: path.join(BARE_DIR, "dist", "index.js"),
        modulesRoot: path.join(BARE_DIR, "dist"),
        bindings: {
          DOCUMENT: documents.view.body,
          DOCUMENT_ID: documents.view.id,
          BULK_IDS: JSON.stringify(documents.bulk.map((d) => d.id)),
          V3_ASSET: documents.v3Asset.body,
          V3_ASSET_TYPE: documents.v3Asset.contentType,
          V3_BULK: documents.v3Bulk.body,
          V3_BULK_TYPE: documents.v3Bulk.contentType,
        },
        unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      } as WorkerOptions,
    ],
  });
  try {
    await mf.ready;
    const db = await mf.getD1Database("DB", BARE_NAME);
    // The edge's cache table (apps/edge/migrations), holding the reference documents.
    const now = Date.now();
    await db.batch([
      db.prepare(
        `CREATE TABLE IF NOT EXISTS documents ("index" text NOT NULL, id text NOT NULL, at_time text DEFAULT '' NOT NULL, body text NOT NULL,
           negative integer DEFAULT false NOT NULL, fetched_at integer NOT NULL, expires_at integer, PRIMARY KEY("index", id, at_time))`,
      ),
      ...[documents.view, ...documents.bulk].map((d) =>
        db
          .prepare(
            `INSERT OR REPLACE INTO documents ("index", id, at_time, body, negative, fetched_at, expires_at) VALUES ('certificates', ?, '', ?, 0, ?, NULL)`,
          )
          .bind(d.id, d.body, now),
      ),
    ]);
    const url = await mf.unsafeGetDirectURL(BARE_NAME);
    return { url: url.origin, dispose: () => mf.dispose() };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}
