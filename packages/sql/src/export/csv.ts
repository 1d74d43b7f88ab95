/**
 * CSV as RFC 4180 has it: records end with CRLF; a field holding the delimiter, a double quote,
 * CR or LF is enclosed in double quotes, with inner quotes doubled. A null is an empty field
 * and an empty string is `""`, so the two stay apart.
 */

export const CSV_LINE_END = "\r\n";

/** Delimiters that cannot separate fields unambiguously. */
export function isUsableDelimiter(delimiter: string): boolean {
  return [...delimiter].length === 1 && delimiter !== '"' && delimiter !== "\r" && delimiter !== "\n";
}

export function csvField(value: string | null, delimiter: string): string {
  if (value === null) return "";
  if (value === "") return '""';
  if (value.includes(delimiter) || /["\r\n]/.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

export function csvRecord(values: readonly (string | null)[], delimiter: string): string {
  return values.map((value) => csvField(value, delimiter)).join(delimiter) + CSV_LINE_END;
}
