import type { Env } from "./env";
import { d1AnnotationStore, type AnnotationStore } from "./services/annotations";
import { workersJobQueue, type JobQueue } from "./jobs/queue";
import { d1JobStore, type JobStore } from "./jobs/store";
import { d1RawData, type RawData } from "./rawdata/files";
import { parseAccounts, type OriginAccount } from "./services/accounts";
import { systemClock, type Clock } from "./services/clock";
import { d1CreditLedger, type CreditLedger } from "./services/credits";
import { createCursorCodec, DEV_CURSOR_SECRET, type CursorCodec } from "./services/cursor";
import { d1Dataset, type Dataset } from "./services/dataset";
import { d1QuotaLedger, type QuotaLedger } from "./services/quota";
import { d1SnapshotCatalogSource, type SnapshotCatalogSource } from "./snapshots/catalog";
import { d1PlatformStore, type PlatformStore } from "./services/v3-platform";
import { r2ResultStore, type ResultStore } from "./storage/result-store";

/** What the routes use, each behind a small interface. Chosen here, and only here. */
export interface Services {
  clock: Clock;
  accounts: readonly OriginAccount[];
  quota: QuotaLedger;
  /** Platform (v3) credits of the organizations (DB). */
  credits: CreditLedger;
  cursors: CursorCodec;
  /** The scan dataset (DB). */
  dataset: Dataset;
  /** Raw-data results and their files (DB, files in EXPORTS). */
  rawData: RawData;
  /** Query and export job records (DB). */
  jobs: JobStore;
  /** Started jobs go here for the consumer (JOBS). */
  jobQueue: JobQueue;
  /** Query result pages, export files and raw-data files (EXPORTS). */
  results: ResultStore;
  /** The published snapshot tables job SQL reads (SNAPSHOTS). */
  snapshots: SnapshotCatalogSource;
  /** The accounts' tags and comments (DB). */
  annotations: AnnotationStore;
  /** The Platform API's organization records and history readers (DB). */
  platform: PlatformStore;
}

/** Replacements tests make; anything left out is chosen from the bindings. */
export type AppDeps = Partial<
  Pick<
    Services,
    "clock" | "quota" | "credits" | "dataset" | "rawData" | "jobs" | "jobQueue" | "results" | "snapshots"
  >
>;

/** The one place that picks each implementation from the bindings. */
export function createServices(
  env: Env,
  configured: Pick<Services, "accounts" | "cursors">,
  deps: AppDeps = {},
): Services {
  const results = deps.results ?? r2ResultStore(env.EXPORTS);
  return {
    ...configured,
    clock: deps.clock ?? systemClock,
    quota: deps.quota ?? d1QuotaLedger(env.DB),
    credits: deps.credits ?? d1CreditLedger(env.DB),
    dataset: deps.dataset ?? d1Dataset(env.DB),
    rawData: deps.rawData ?? d1RawData(env.DB, results),
    jobs: deps.jobs ?? d1JobStore(env.DB),
    jobQueue: deps.jobQueue ?? workersJobQueue(env.JOBS),
    results,
    snapshots: deps.snapshots ?? d1SnapshotCatalogSource(env.SNAPSHOTS),
    annotations: d1AnnotationStore(env.DB),
    platform: d1PlatformStore(env.DB),
  };
}

/**
 * Builds the services for a request from the bindings. Parsed configuration and imported keys
 * are kept per isolate, keyed by the configuration text, so a changed binding is picked up.
 */
export function servicesFactory(deps: AppDeps = {}): (env: Env) => Promise<Services> {
  let accounts: { source: string; value: readonly OriginAccount[] } | undefined;
  let cursors: { source: string; value: Promise<CursorCodec> } | undefined;
  return async (env) => {
    if (accounts?.source !== env.ORIGIN_ACCOUNTS) {
      accounts = { source: env.ORIGIN_ACCOUNTS, value: parseAccounts(env.ORIGIN_ACCOUNTS) };
    }
    const secret = env.CURSOR_SECRET || DEV_CURSOR_SECRET;
    if (cursors?.source !== secret) cursors = { source: secret, value: createCursorCodec(secret) };
    return createServices(env, { accounts: accounts.value, cursors: await cursors.value }, deps);
  };
}
