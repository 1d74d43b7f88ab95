// Bundles the CLI (src/cli/main.ts with the client, @scangate/core and zod) into one ESM file
// that Node 20 runs as is: Node 20 cannot load TypeScript, and core ships as TypeScript source.
import { stat, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_BUNDLE = path.join(packageDir, "dist", "scangate.mjs");
const SOURCE_DIRS = [path.join(packageDir, "src"), path.join(packageDir, "..", "core", "src")];

export async function buildCli() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [path.join(packageDir, "src", "cli", "main.ts")],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
}

async function newestMtime(dir) {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const { mtimeMs } = await stat(path.join(entry.parentPath ?? entry.path, entry.name));
    newest = Math.max(newest, mtimeMs);
  }
  return newest;
}

/** True when the bundle is missing or older than any source file of the client or core. */
export async function cliBundleIsStale() {
  const built = await stat(CLI_BUNDLE).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  if (built === 0) return true;
  for (const dir of SOURCE_DIRS) {
    const newest = await newestMtime(dir).catch(() => 0);
    if (newest > built) return true;
  }
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
