// Starts the system once for every test file and hands its URLs and credentials to the tests
// (`inject("EDGE_URL")`, ...); stops every process it started afterwards.
import type { TestProject } from "vitest/node";
import { EDGE_DEV_VARS, fileDigest, type LocalEnv, startSystem } from "./support/system";

declare module "vitest" {
  export interface ProvidedContext extends LocalEnv {
    /** sha256 of apps/edge/.dev.vars before the system started (null: there was none). */
    EDGE_DEV_VARS_DIGEST: string | null;
    /** What start.mjs printed up to the moment it was ready. */
    START_OUTPUT: string;
    /** The local-env file start.mjs was told to write. */
    LOCAL_ENV_FILE: string;
    /** The file start.mjs and both workers keep printing to while the tests run. */
    START_LOG_FILE: string;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const devVarsDigest = fileDigest(EDGE_DEV_VARS);
  // In CI nothing survives the run, so the template would only cost time: start.mjs seeds, as on a first start.
  const system = await startSystem({
    hosts: 300,
    certs: 250,
    timeoutMs: 300_000,
    reuseSeededOrigin: !process.env.CI,
  });
  const { template } = system;
  const prepared = template
    ? `origin dataset ${template.reused ? "copied from its template" : "seeded into a new template"} in ${seconds(template.ms)}, then `
    : "";
  console.log(
    `e2e: ${prepared}start.mjs ready in ${seconds(system.readyMs)} (migrations, seed, both workers, demo tenant)`,
  );

  for (const [key, value] of Object.entries(system.env) as [keyof LocalEnv, string][])
    project.provide(key, value);
  project.provide("EDGE_DEV_VARS_DIGEST", devVarsDigest);
  project.provide("START_OUTPUT", system.output());
  project.provide("LOCAL_ENV_FILE", system.envFile);
  project.provide("START_LOG_FILE", system.logFile);

  return async () => {
    const { stopMs, killed } = await system.stop();
    console.log(
      `e2e: system stopped in ${seconds(stopMs)}${killed ? " (SIGKILL after SIGINT was not enough)" : ""}`,
    );
  };
}
