import type { ExportFormat } from "@scangate/core";
import { cellText, jsonValue } from "./result-values";
import type { ResultColumn } from "../plan";
import { csvRecord } from "./csv";
import { nestingPlan, nestRecord, topLevelKeys } from "./records";

/**
 * Turns result rows into the text of export files.
 *
 * - json: newline-delimited JSON (one object per line, as BigQuery exports JSON), so a file can
 *   be split between any two rows and each part is still valid. Numbers stay numbers, BOOLEAN
 *   columns are true/false and REPEATED columns are arrays. `flatten: true` keys each value by its
 *   column name (`"location_country"`), `flatten: false` nests a field by its path
 *   (`{"location": {"country": ...}}`).
 * - csv: a header row (unless `headers: false`) at the top of every file, so each split file
 *   stands alone. Cells are the query-page texts; REPEATED columns hold their JSON array. With
 *   `flatten: false` a nested object is one column holding JSON.
 */

export interface EncodeOptions {
  format: ExportFormat;
  flatten: boolean;
  headers: boolean;
  delimiter: string;
}

export interface RowEncoder {
  /** The text every file starts with ("" for none). */
  readonly header: string;
  encode(row: readonly unknown[]): string;
}

export function createRowEncoder(options: EncodeOptions, resultColumns: readonly ResultColumn[]): RowEncoder {
  const definitionOf = (index: number) => resultColumns[index];
  // Flattened, a column keeps its name (`location_country`); nested, a field selected as itself
  // nests by its path (`{"location": {"country": ...}}`), as BigQuery's unflattened results do.
  const plan = options.flatten
    ? resultColumns.map((c) => [c.name])
    : nestingPlan(resultColumns.map((c) => c.path ?? c.name));
  const typed = (row: readonly unknown[]) => row.map((value, i) => jsonValue(value, definitionOf(i)));

  if (options.format === "json") {
    return { header: "", encode: (row) => `${JSON.stringify(nestRecord(plan, typed(row)))}\n` };
  }

  const keys = topLevelKeys(plan);
  const header = options.headers ? csvRecord(keys, options.delimiter) : "";
  if (options.flatten) {
    return {
      header,
      encode: (row) =>
        csvRecord(
          row.map((value, i) => cellText(value, definitionOf(i))),
          options.delimiter,
        ),
    };
  }
  return {
    header,
    encode: (row) => {
      const record = nestRecord(plan, typed(row));
      const cells = keys.map((key) => {
        const value = record[key];
        if (value === null || value === undefined) return null;
        return typeof value === "string" ? value : JSON.stringify(value);
      });
      return csvRecord(cells, options.delimiter);
    },
  };
}
