#!/usr/bin/env node
// Wipes local state: both workers' D1/R2/queue data, generated dataset files and
// .scangate/local.env. The next `pnpm start` seeds afresh.
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
for (const dir of [".wrangler", ".scangate", "apps/origin/.wrangler", "apps/edge/.wrangler"]) {
  rmSync(path.join(root, dir), { recursive: true, force: true });
  console.log(`removed ${dir}`);
}
