import { EXPORT_FORMATS, type QueryResultsPage } from "@scangate/core";
import type { ScangateClient } from "../../client";
import type { WaitOptions } from "../../job-polling";
import { typeRow } from "../../query-rows";
import type { CliIO, CliStream } from "../cli-io";
import { CSV_OPTION, refuseExtraArgs, requireArg, type Command, type CommandContext } from "../command";
import { UsageError } from "../exit-codes";
import { Output } from "../output";
import { jobProgressIndicator } from "../progress";
import { signal } from "./documents";

const WAIT_OPTIONS: Command["options"] = {
  "wait-timeout": {
    type: "string",
    valueName: "SECONDS",
    description: "stop waiting for the job after this long (default 900)",
  },
  out: {
    type: "string",
    valueName: "DIR",
    description: "write the results into this folder instead of stdout",
  },
};

async function sqlArg(ctx: CommandContext): Promise<string> {
  const sql = requireArg(ctx, 0, "SQL query (or - to read it from stdin)");
  refuseExtraArgs(ctx, 1);
  const text = sql === "-" ? (await ctx.io.readStdin()).trim() : sql;
  if (text === "") throw new UsageError("the SQL query is empty", ctx.command.name);
  return text;
}

/** Waits for a job with the progress line on stderr (unless --quiet). */
async function waitWithProgress<J>(
  ctx: CommandContext,
  label: string,
  wait: (options: WaitOptions) => Promise<J>,
): Promise<J> {
  const timeout = ctx.flags.int("wait-timeout", 1);
  const progress = ctx.quiet ? undefined : jobProgressIndicator(ctx.io.stderr, label);
  try {
    return await wait({
      ...(progress ? { onProgress: progress.onProgress } : {}),
      ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }),
      ...signal(ctx.signal),
    });
  } finally {
    await progress?.done();
  }
}

/** Runs `produce` against a stream that fills a new file in `dir`, and returns its path. */
async function intoFile(
  io: CliIO,
  dir: string,
  name: string,
  produce: (stream: CliStream) => Promise<void>,
): Promise<string> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const stream: CliStream = { isTTY: false, write: (text) => writer.write(encoder.encode(text)) };
  const saving = io.saveFile(dir, name, readable);
  try {
    await produce(stream);
    await writer.close();
  } catch (error) {
    await writer.abort(error);
    await saving.catch(() => undefined);
    throw error;
  }
  return saving;
}

async function* typedRows(
  client: ScangateClient,
  first: QueryResultsPage,
  jobId: string,
  maxRows: number | undefined,
  abort?: AbortSignal,
) {
  let page = first;
  let count = 0;
  for (let number = 1; ; number += 1) {
    if (number > 1) page = await client.query.results(jobId, number, signal(abort));
    for (const row of page.rows) {
      if (maxRows !== undefined && count >= maxRows) return;
      count += 1;
      yield typeRow(page.configuration.schema.fields, row);
    }
    if (number >= page.statistics.pages || page.rows.length === 0) return;
  }
}

const query: Command = {
  name: "query",
  summary: "run an SQL query job, wait for it (progress on stderr) and print its rows",
  usage: ["query <sql|-> [--max-rows N] [--csv] [--out DIR]", "query --job <job_id> [--csv] [--out DIR]"],
  details:
    "Rows are objects keyed by column, typed by the result schema (INTEGER → number, BOOLEAN → boolean,\n" +
    "TIMESTAMP → ISO 8601 text, big integers as strings). --out DIR writes <job_id>.json (or .csv) there.",
  options: {
    job: {
      type: "string",
      valueName: "ID",
      description: "read a job started earlier instead of starting one",
    },
    "max-rows": { type: "string", valueName: "N", description: "print at most N rows" },
    ...WAIT_OPTIONS,
    ...CSV_OPTION,
  },
  async run(ctx) {
    const client = ctx.client();
    const existing = ctx.flags.string("job");
    if (existing) refuseExtraArgs(ctx, 0);
    const started = existing
      ? await client.query.status(existing, signal(ctx.signal))
      : await client.query.start(await sqlArg(ctx), signal(ctx.signal));
    const done = await waitWithProgress(ctx, "query", (options) => client.query.wait(started, options));
    const first = await client.query.results(done.job_id, 1, signal(ctx.signal));
    const columns = first.configuration.schema.fields.map((field) => field.name);
    const maxRows = ctx.flags.int("max-rows", 0);
    const write = (output: Output) =>
      output.list(typedRows(client, first, done.job_id, maxRows, ctx.signal), columns);
    const dir = ctx.flags.string("out");
    if (!dir) {
      await write(ctx.output);
      return;
    }
    const name = `${safeName(done.job_id)}.${ctx.output.csv ? "csv" : "json"}`;
    const file = await intoFile(ctx.io, dir, name, async (stream) => {
      await write(new Output(stream, ctx.output.csv));
    });
    await new Output(ctx.io.stdout, false).json({ job_id: done.job_id, rows: first.statistics.rows, file });
  },
};

const exportCommand: Command = {
  name: "export",
  summary: "run an export job, wait for it and print (or --out: download) its files",
  usage: [
    "export <sql|-> [--format csv|json] [--delimiter C] [--no-headers] [--compress] [--nested] [--out DIR | --paths-only]",
  ],
  details:
    "Without --out the files' contents go to stdout one after another; --paths-only prints the finished job\n" +
    "(with its download_paths) instead of downloading.",
  options: {
    format: { type: "string", valueName: "FORMAT", description: "csv (default) or json" },
    delimiter: { type: "string", valueName: "C", description: "CSV field separator (default ,)" },
    "no-headers": { type: "boolean", description: "CSV without a header row" },
    compress: { type: "boolean", description: "gzip the files" },
    nested: { type: "boolean", description: "keep nested and repeated fields (no flattening)" },
    "paths-only": { type: "boolean", description: "print the job and its download paths, download nothing" },
    ...WAIT_OPTIONS,
  },
  async run(ctx) {
    const sql = await sqlArg(ctx);
    const client = ctx.client();
    const delimiter = ctx.flags.string("delimiter");
    const format = ctx.flags.choice("format", EXPORT_FORMATS);
    const started = await client.export.start({
      query: sql,
      ...(format ? { format } : {}),
      ...(delimiter === undefined ? {} : { delimiter }),
      headers: !ctx.flags.bool("no-headers"),
      compress: ctx.flags.bool("compress"),
      flatten: !ctx.flags.bool("nested"),
      ...signal(ctx.signal),
    });
    const job = await waitWithProgress(ctx, "export", (options) => client.export.wait(started, options));
    const paths = job.download_paths ?? [];
    if (ctx.flags.bool("paths-only")) {
      await ctx.output.json(job);
      return;
    }
    const dir = ctx.flags.string("out");
    const files: string[] = [];
    const names = new Set<string>();
    for (const [i, path] of paths.entries()) {
      const response = await client.download(path, signal(ctx.signal));
      if (!response.body) continue;
      if (!dir) {
        await ctx.io.stdout.writeBytes(response.body);
        continue;
      }
      // A URL's last segment names the file when it looks like a file name (the edge's are numbers).
      let name = safeName(decodeURIComponent(new URL(path).pathname.split("/").pop() ?? ""));
      if (!name.includes(".") || names.has(name)) {
        name = `${safeName(job.job_id)}-${i + 1}.${job.configuration.format}${job.configuration.compress ? ".gz" : ""}`;
      }
      names.add(name);
      files.push(await ctx.io.saveFile(dir, name, response.body));
    }
    if (dir) await ctx.output.json({ job_id: job.job_id, files });
  },
};

const series: Command = {
  name: "series",
  summary: "series that SQL can query, or one series' fields and daily tables",
  usage: ["series [series_id]"],
  options: {},
  async run(ctx) {
    refuseExtraArgs(ctx, 1);
    const id = ctx.args[0];
    const client = ctx.client();
    await ctx.output.json(
      id
        ? await client.query.seriesDetails(id, signal(ctx.signal))
        : await client.query.series(signal(ctx.signal)),
    );
  },
};

const data: Command = {
  name: "data",
  summary: "raw-data metadata: all series, one series' scans, or one scan's files",
  usage: ["data [series_id [result_id]]"],
  options: {},
  async run(ctx) {
    refuseExtraArgs(ctx, 2);
    const [seriesId, resultId] = ctx.args;
    const client = ctx.client();
    const opts = signal(ctx.signal);
    if (seriesId && resultId) await ctx.output.json(await client.data.result(seriesId, resultId, opts));
    else if (seriesId) await ctx.output.json(await client.data.seriesDetails(seriesId, opts));
    else await ctx.output.json(await client.data.series(opts));
  },
};

/** A file name made of safe characters only: a server cannot steer writes outside --out. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
}

export const jobCommands: readonly Command[] = [query, exportCommand, series, data];
