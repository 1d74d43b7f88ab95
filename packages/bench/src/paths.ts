import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where things are, from this package's folder. */
export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = path.resolve(BENCH_DIR, "../..");
export const ORIGIN_DIR = path.join(REPO_ROOT, "apps", "origin");
export const EDGE_DIR = path.join(REPO_ROOT, "apps", "edge");
export const BARE_DIR = path.join(BENCH_DIR, "workers", "bare");
/** Local D1/R2 state of bench runs (git-ignored), one folder per dataset size and seed. */
export const STATE_DIR = path.join(BENCH_DIR, ".state");
/** Results files (git-ignored by the repository's bench-results/ rule). */
export const RESULTS_DIR = path.join(BENCH_DIR, "bench-results");
/** This package's own wrangler (the catalog version the apps use). */
export const WRANGLER_BIN = path.join(BENCH_DIR, "node_modules", ".bin", "wrangler");

export function datasetStateDir(hosts: number, certs: number, seed: string): string {
  return path.join(STATE_DIR, `h${hosts}-c${certs}-s${seed}`);
}
