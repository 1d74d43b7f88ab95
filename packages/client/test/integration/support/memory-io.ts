import type { CliIO } from "../../../src/cli/cli-io";
import type { FetchLike } from "../../../src/index";
import { runCli } from "../../../src/cli/run";
import { EDGE_URL, edgeFetch, noWait } from "./stack";

export interface MemoryRun {
  code: number;
  stdout: string;
  stderr: string;
  files: Map<string, string>;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
}

export interface MemoryOptions {
  stdin?: string;
  env?: Record<string, string>;
  localEnv?: Record<string, string>;
  fetch?: FetchLike;
  /** How the CLI waits (retries, job polls); none by default. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs `scangate argv...` in memory against the real edge: stdout, stderr and files captured. */
export async function cli(argv: string[], options: MemoryOptions = {}): Promise<MemoryRun> {
  let stdout = "";
  let stderr = "";
  const files = new Map<string, string>();
  const io: CliIO = {
    env: { SCANGATE_URL: EDGE_URL, ...options.env },
    stdout: {
      isTTY: false,
      write: (text) => {
        stdout += text;
        return Promise.resolve();
      },
      writeBytes: async (body) => {
        stdout += await new Response(body).text();
      },
    },
    stderr: {
      isTTY: false,
      write: (text) => {
        stderr += text;
        return Promise.resolve();
      },
    },
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    readLocalEnv: () => Promise.resolve(options.localEnv ?? {}),
    saveFile: async (dir, name, body) => {
      const path = `${dir}/${name}`;
      files.set(path, typeof body === "string" ? body : await new Response(body).text());
      return path;
    },
    fetch: options.fetch ?? edgeFetch,
    sleep: options.sleep ?? noWait,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, files, json: <T>() => JSON.parse(stdout) as T };
}

/** `--api-id ID --secret SECRET` for a tenant. */
export function credentials(tenant: { api_id: string; api_secret: string }): string[] {
  return ["--api-id", tenant.api_id, "--secret", tenant.api_secret];
}
