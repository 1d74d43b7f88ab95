import { spawn } from "node:child_process";

export interface RunOptions {
  /** Show the command's output as it comes, each line prefixed with the time since it started. */
  readonly echo?: boolean;
  /** Stop the command (and everything it started) after this long; the run then fails with RunTimeout. */
  readonly timeoutMs?: number;
}

/** A command stopped because it ran past its time limit. */
export class RunTimeout extends Error {}

/** A command that exited with a status other than 0. */
export class RunFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** Process groups of the commands running now (each in a group of its own, see `run`). */
const running = new Set<number>();

/** Stops every command `run` started that is still running (on Ctrl-C: they are not in our group). */
export function stopRunning(): void {
  for (const pid of running) {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

/** Runs a command to completion; its output is kept and shown only when it fails (or `echo`). */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  options: RunOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A process group of its own, so a time limit stops the command's children too.
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
    });
    if (child.pid !== undefined) running.add(child.pid);
    let output = "";
    let partial = "";
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (!options.echo) return;
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      const at = `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`;
      for (const line of lines) if (line.trim() !== "") process.stderr.write(`  ${at} ${line.trim()}\n`);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
          }, options.timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      if (timer) clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      if (timedOut)
        reject(new RunTimeout(`${command} ${args.join(" ")} stopped after ${options.timeoutMs} ms`));
      else if (code === 0) resolve(output);
      else
        reject(
          new RunFailed(
            `${command} ${args.join(" ")} (in ${cwd}) exited with ${code}\n${options.echo ? "" : output}`,
            code,
          ),
        );
    });
  });
}
