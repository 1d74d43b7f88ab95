// Set up before every system test file: when a test fails, print what start.mjs and both workers
// logged while it ran (the log file is gone once the system stops), so a failure in CI comes with
// the system's side of it.
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { beforeEach, inject } from "vitest";

/** The most of a test's log lines printed with its failure: the last ones. */
const MAX_LINES = 80;

beforeEach(({ task, onTestFailed }) => {
  const file = inject("START_LOG_FILE");
  const offset = existsSync(file) ? statSync(file).size : 0;
  onTestFailed(async () => {
    if (!existsSync(file)) return;
    const lines = (await readFile(file)).subarray(offset).toString("utf8").trimEnd().split("\n");
    const shown = lines.slice(-MAX_LINES);
    const part = shown.length < lines.length ? ` (its last ${shown.length} of ${lines.length} lines)` : "";
    console.error(`The system's log while "${task.name}" ran${part}:\n${shown.join("\n")}`);
  });
});
