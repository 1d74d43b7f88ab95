// Child-process helpers shared by the root scripts (start, reset, compatibility checks).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

/** The workspace's own wrangler, so no global install is needed. */
export function wranglerBin(root) {
  return path.join(root, "node_modules", ".bin", "wrangler");
}

/** Runs a command to completion; rejects with its output when it fails. */
export function run(command, args, { cwd, quiet = false, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(command)} ${args.join(" ")} exited with ${code}\n${output}`));
    });
  });
}

/**
 * Polls a URL until it answers 2xx, or fails after `timeoutMs`, or as soon as `signal` aborts
 * (e.g. when the process that should answer has exited).
 */
export async function waitForHealth(url, timeoutMs = 120_000, { signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "no answer";
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    try {
      const res = await fetch(url, { signal });
      await res.body?.cancel();
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      signal?.throwIfAborted();
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000} s (${lastError})`);
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
