import type { FetchLike } from "../transport";

/** Text output that honours backpressure: `write` resolves once the chunk may be followed. */
export interface CliStream {
  write(text: string): Promise<void>;
  readonly isTTY: boolean;
}

/**
 * Everything the CLI touches outside itself. main.ts gives the Node versions; tests give
 * in-memory ones and point `fetch` at the real workers.
 */
export interface CliIO {
  env: Readonly<Record<string, string | undefined>>;
  stdout: CliStream & { writeBytes(body: ReadableStream<Uint8Array>): Promise<void> };
  stderr: CliStream;
  /** The whole of standard input (bulk fingerprints, SQL given as `-`). */
  readStdin(): Promise<string>;
  /** `KEY=value` pairs of `.scangate/local.env` (written by `pnpm start`), or {} when absent. */
  readLocalEnv(): Promise<Record<string, string>>;
  /** Writes a file into `dir` (created if needed) and returns the path written. */
  saveFile(dir: string, name: string, body: ReadableStream<Uint8Array> | string): Promise<string>;
  fetch?: FetchLike;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
}
