import { describe, expect, it } from "vitest";
import type { CliStream } from "../../src/cli/cli-io";
import { EXIT, exitCodeFor, UsageError } from "../../src/cli/exit-codes";
import { Output } from "../../src/cli/output";
import { jobProgressIndicator } from "../../src/cli/progress";
import {
  AuthenticationError,
  InvalidQueryError,
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
} from "../../src/errors";

function memory(isTTY = false): CliStream & { text: string } {
  const stream = {
    isTTY,
    text: "",
    write(chunk: string) {
      stream.text += chunk;
      return Promise.resolve();
    },
  };
  return stream;
}

async function* items(...values: Record<string, unknown>[]) {
  for (const value of values) {
    await Promise.resolve();
    yield value;
  }
}

describe("Output", () => {
  it("streams a list as one JSON array that parses back to the items", async () => {
    const out = memory();
    const count = await new Output(out, false).list(
      items({ ip: "1.1.1.1", location: { country: "US" } }, { ip: "8.8.8.8" }),
    );
    expect(count).toBe(2);
    expect(JSON.parse(out.text)).toEqual([{ ip: "1.1.1.1", location: { country: "US" } }, { ip: "8.8.8.8" }]);
  });

  it("writes [] for an empty list", async () => {
    const out = memory();
    await new Output(out, false).list(items());
    expect(JSON.parse(out.text)).toEqual([]);
  });

  it("writes CSV under the first item's flattened keys unless columns are given", async () => {
    const out = memory();
    await new Output(out, true).list(
      items({ ip: "1.1.1.1", location: { country: "US" } }, { ip: "8.8.8.8", extra: 1 }),
    );
    expect(out.text).toBe("ip,location.country\r\n1.1.1.1,US\r\n8.8.8.8,\r\n");
    const given = memory();
    await new Output(given, true).list(items(), ["key", "count"]);
    expect(given.text).toBe("key,count\r\n");
  });
});

describe("jobProgressIndicator", () => {
  it("writes a line per status change when stderr is not a terminal", async () => {
    const err = memory(false);
    const progress = jobProgressIndicator(err, "query");
    progress.onProgress({ jobId: "job_1", status: "pending", polls: 0, elapsedMs: 0 });
    progress.onProgress({ jobId: "job_1", status: "pending", polls: 1, elapsedMs: 1000 });
    progress.onProgress({ jobId: "job_1", status: "success", polls: 2, elapsedMs: 2600 });
    await progress.done();
    expect(err.text).toBe("query job_1: pending (0 s)\nquery job_1: success (3 s)\n");
  });

  it("redraws one line in place on a terminal and ends it when done", async () => {
    const err = memory(true);
    const progress = jobProgressIndicator(err, "export");
    progress.onProgress({ jobId: "job_2", status: "pending", polls: 0, elapsedMs: 0 });
    progress.onProgress({ jobId: "job_2", status: "success", polls: 1, elapsedMs: 1000 });
    await progress.done();
    expect(err.text.startsWith("\r\x1b[2K")).toBe(true);
    expect(err.text.endsWith("\r\x1b[2Kexport job_2: success (1 s)\n")).toBe(true);
    expect(err.text.split("\n")).toHaveLength(2);
  });
});

describe("exitCodeFor", () => {
  it.each([
    [new UsageError("bad flag"), EXIT.usage],
    [new AuthenticationError("no", { status: 401 }), EXIT.auth],
    [new NotFoundError("gone", { status: 404 }), EXIT.notFound],
    [new RateLimitError("slow", { status: 429 }), EXIT.rateLimited],
    [new QuotaExceededError("spent", { status: 429 }), EXIT.rateLimited],
    [new NetworkError("down", { status: 0 }), EXIT.network],
    [new InvalidQueryError("bad", { status: 400 }), EXIT.api],
    [new ServerError("boom", { status: 500 }), EXIT.api],
    [new Error("bug"), EXIT.unexpected],
  ])("maps %s to %i", (error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });
});
