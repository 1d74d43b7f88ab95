#!/usr/bin/env node
// `scangate`: runs the bundled CLI, (re)building it first when a source file is newer, so
// a fresh clone works right after `pnpm install` with no separate build step.
import { access } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { buildCli, cliBundleIsStale, CLI_BUNDLE } from "../scripts/build-cli.mjs";

let stale = true;
try {
  stale = await cliBundleIsStale();
} catch {
  stale = true;
}
if (stale) {
  try {
    await buildCli();
  } catch (error) {
    // Without esbuild (an install without dev dependencies) an existing bundle still runs.
    const haveBundle = await access(CLI_BUNDLE).then(
      () => true,
      () => false,
    );
    if (!haveBundle) {
      console.error(
        `scangate: cannot build the CLI (${error instanceof Error ? error.message : error}); run \`pnpm --filter @scangate/client build\``,
      );
      process.exit(1);
    }
  }
}
await import(pathToFileURL(CLI_BUNDLE).href);
