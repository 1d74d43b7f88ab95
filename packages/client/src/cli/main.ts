import { createWriteStream } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { CliIO, CliStream } from "./cli-io";
import { runCli } from "./run";
import { parseEnvFile } from "./settings";

// The Node side of `scangate`: real stdin/stdout, files, environment, Ctrl-C.

function nodeStream(stream: NodeJS.WriteStream): CliStream {
  return {
    isTTY: stream.isTTY === true,
    write: (text) =>
      new Promise<void>((resolve, reject) => {
        stream.write(text, (error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** `.scangate/local.env` of the nearest folder upwards from here (the repo root, usually). */
async function readLocalEnv(): Promise<Record<string, string>> {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    try {
      return parseEnvFile(await readFile(path.join(dir, ".scangate", "local.env"), "utf8"));
    } catch {
      if (path.dirname(dir) === dir) return {};
    }
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const controller = new AbortController();
process.once("SIGINT", () => controller.abort(new Error("interrupted")));
// A reader that stops early (`scangate search ... | head`) closes the pipe: the rest of the
// output has nowhere to go, which is how such a pipeline ends, not an error to report.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  controller.abort(new Error("output closed"));
  process.exit(process.exitCode ?? 0);
});

const io: CliIO = {
  env: process.env,
  stdout: {
    ...nodeStream(process.stdout),
    writeBytes: (body) =>
      pipeline(
        Readable.fromWeb(body),
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            process.stdout.write(chunk, callback);
          },
        }),
      ),
  },
  stderr: nodeStream(process.stderr),
  readStdin,
  readLocalEnv,
  async saveFile(dir, name, body) {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, name);
    const source = typeof body === "string" ? Readable.from([body]) : Readable.fromWeb(body);
    await pipeline(source, createWriteStream(file));
    return file;
  },
  signal: controller.signal,
};

process.exitCode = await runCli(process.argv.slice(2), io);
