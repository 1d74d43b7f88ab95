// The two system packages some tests drive: Debian's Chromium and the official Censys Python
// client (python3-censys). Without one, its tests are skipped with the reason printed, unless
// SCANGATE_REQUIRE_SYSTEM_DEPS=1 (CI installs both), which turns the absence into a failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, it } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
/** The Debian Python: a pyenv or venv `python3` earlier on PATH does not see python3-censys. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

export type SystemDependency =
  | { name: string; ok: true; detail: string }
  | { name: string; ok: false; problem: string };

export function chromium(): SystemDependency {
  const name = "Chromium";
  return existsSync(CHROMIUM)
    ? { name, ok: true, detail: CHROMIUM }
    : { name, ok: false, problem: `${CHROMIUM} is missing (apt-get install chromium)` };
}

export function censysPython(): SystemDependency {
  const name = "the Censys Python client";
  if (!existsSync(SYSTEM_PYTHON)) return { name, ok: false, problem: `${SYSTEM_PYTHON} is missing` };
  const probe = spawnSync(
    SYSTEM_PYTHON,
    ["-c", "import censys.search, censys.common.version as v; print(v.__version__)"],
    {
      encoding: "utf8",
    },
  );
  return probe.status === 0
    ? { name, ok: true, detail: `censys ${probe.stdout.trim()} in ${SYSTEM_PYTHON}` }
    : { name, ok: false, problem: `${SYSTEM_PYTHON} cannot import censys (apt-get install python3-censys)` };
}

export const systemDepsRequired = () => process.env.SCANGATE_REQUIRE_SYSTEM_DEPS === "1";

/**
 * `describe(name, body)` when `dependency` is there. Otherwise the suite is skipped with the
 * reason printed, or, when SCANGATE_REQUIRE_SYSTEM_DEPS=1, replaced by one failing test.
 */
export function describeWith(dependency: SystemDependency, name: string, body: () => void): void {
  if (dependency.ok) {
    describe(name, body);
  } else if (systemDepsRequired()) {
    describe(name, () => {
      it(`needs ${dependency.name}`, () => {
        throw new Error(`${dependency.problem}; SCANGATE_REQUIRE_SYSTEM_DEPS=1 makes that a failure`);
      });
    });
  } else {
    console.warn(
      `skipped "${name}": ${dependency.problem} (SCANGATE_REQUIRE_SYSTEM_DEPS=1 makes that a failure)`,
    );
    // Skipped for want of a Debian package (the reason is printed above); CI requires it.
    describe.skip(name, body);
  }
}
