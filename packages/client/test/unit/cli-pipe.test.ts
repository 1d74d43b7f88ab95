import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const BIN = path.join(import.meta.dirname, "..", "..", "bin", "scangate.mjs");

/** Runs the CLI with its stdout's reader gone before it writes (`scangate ... | head` after head exits). */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

it("ends quietly when the reader of its output has closed the pipe", async () => {
  const { code, stderr } = await runIntoClosedPipe(["--help"]);
  expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
  expect(code).toBe(0);
}, 60_000);
