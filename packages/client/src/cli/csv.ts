/**
 * RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted, quotes doubled, lines end
 * with CRLF. Cells: null → empty, Date → ISO 8601, a list of scalars → items joined by `;`,
 * any other object → its JSON.
 */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map((cell) => csvField(csvCell(cell))).join(",")}\r\n`;
}

export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")) {
    return value.map((item) => csvCell(item)).join(";");
  }
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
    case "boolean":
      return value.toString();
    default:
      return JSON.stringify(value, jsonReplacer) ?? "";
  }
}

/**
 * Nested objects as dot-notation keys (`location.country`), the shape v1 search uses with
 * `flatten`; arrays stay whole (a cell each).
 */
export function flattenRecord(
  record: Record<string, unknown>,
  prefix = "",
  into: Record<string, unknown> = {},
) {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)) {
      flattenRecord(value as Record<string, unknown>, name, into);
    } else {
      into[name] = value;
    }
  }
  return into;
}

/** JSON has no bigint: big integers are written as decimal strings, exact. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
