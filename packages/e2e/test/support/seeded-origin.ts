// The origin's seeded databases, kept between runs. Seeding is most of the time `pnpm start`
// takes on a fresh state dir (generating certificates and building snapshot tables, ~10 s), and
// its answer only changes with the code and data that produce it; so the first run seeds a
// template with the origin's own seed script, and every run starts from a copy of it. The seed
// script that start.mjs runs then finds the dataset in place and leaves it.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths";

const CACHE_DIR = path.resolve(import.meta.dirname, "../../node_modules/.cache/seeded-origin");
const SEED_SCRIPT = path.join(REPO_ROOT, "apps", "origin", "scripts", "seed.mjs");

/** Everything that decides what the seed writes: the origin's code and migrations, the shared packages, the locked tool versions. */
const SEED_INPUTS = [
  "apps/origin/src",
  "apps/origin/migrations",
  "apps/origin/scripts",
  "apps/origin/wrangler.jsonc",
  "packages/core/src",
  "packages/search/src",
  "pnpm-lock.yaml",
];

function filesUnder(relative: string): string[] {
  const absolute = path.join(REPO_ROOT, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute)
    .sort()
    .flatMap((name) => filesUnder(path.join(relative, name)));
}

function templateKey(args: string[]): string {
  const hash = createHash("sha256").update(JSON.stringify(args));
  for (const file of SEED_INPUTS.flatMap(filesUnder)) {
    hash.update(`\0${file}\0`).update(readFileSync(path.join(REPO_ROOT, file)));
  }
  return hash.digest("hex").slice(0, 20);
}

function runSeed(persistTo: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [SEED_SCRIPT, "--persist-to", persistTo, ...args], {
    cwd: path.dirname(path.dirname(SEED_SCRIPT)),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`seeding the origin template failed (${code}):\n${output}`)),
    );
  });
}

/**
 * Puts the origin's seeded databases for `--hosts/--certs` into `stateDir` (a wrangler
 * --persist-to dir), seeding the template first when this code has none yet.
 * Resolves with whether the template was already there.
 */
export async function copySeededOrigin(
  stateDir: string,
  sizes: { hosts: number; certs: number },
): Promise<{ reused: boolean }> {
  const args = ["--hosts", String(sizes.hosts), "--certs", String(sizes.certs)];
  const template = path.join(CACHE_DIR, templateKey(args));
  const reused = existsSync(template);
  if (!reused) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const building = mkdtempSync(path.join(CACHE_DIR, "building-"));
    try {
      await runSeed(building, args);
      // Old templates (other code) go; a concurrent run that finished first keeps its copy.
      for (const name of readdirSync(CACHE_DIR)) {
        if (!name.startsWith("building-") && name !== path.basename(template))
          rmSync(path.join(CACHE_DIR, name), { recursive: true, force: true });
      }
      if (!existsSync(template)) renameSync(building, template);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }
  cpSync(template, stateDir, { recursive: true });
  return { reused };
}
