import type { CliStream } from "./cli-io";
import { csvLine, flattenRecord, jsonReplacer } from "./csv";

type Items = AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;

/** Writes results to stdout: JSON by default, CSV with `--csv` where a command allows it. */
export class Output {
  constructor(
    private readonly stdout: CliStream,
    readonly csv: boolean,
  ) {}

  async json(value: unknown): Promise<void> {
    await this.stdout.write(`${JSON.stringify(value, jsonReplacer, 2)}\n`);
  }

  /**
   * A list, streamed as it arrives: a JSON array, or CSV rows under a header. CSV columns are
   * `columns` when given, else the (flattened) keys of the first item.
   */
  async list(items: Items, columns?: readonly string[]): Promise<number> {
    return this.csv ? this.csvList(items, columns) : this.jsonList(items);
  }

  private async jsonList(items: Items): Promise<number> {
    let count = 0;
    for await (const item of items) {
      const text = JSON.stringify(item, jsonReplacer, 2).replace(/\n/g, "\n  ");
      await this.stdout.write(`${count === 0 ? "[\n  " : ",\n  "}${text}`);
      count += 1;
    }
    await this.stdout.write(count === 0 ? "[]\n" : "\n]\n");
    return count;
  }

  private async csvList(items: Items, columns?: readonly string[]): Promise<number> {
    let header = columns;
    if (header) await this.stdout.write(csvLine(header));
    let count = 0;
    for await (const item of items) {
      const flat = flattenRecord(item);
      if (!header) {
        header = Object.keys(flat);
        await this.stdout.write(csvLine(header));
      }
      await this.stdout.write(csvLine(header.map((column) => flat[column])));
      count += 1;
    }
    return count;
  }
}
