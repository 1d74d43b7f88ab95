import { describe, expect, it } from "vitest";
import { compileSearch } from "../src/index";
import { hostsRegistry } from "./registries";

// Hostile values must reach SQLite only as bound parameters: none of their text may show up
// in the SQL, whatever field, storage or syntax carries them.
const HOSTILE = [
  "'; DROP TABLE hosts; --",
  '" OR 1=1 --',
  "x') OR ('1'='1",
  "Robert'); DROP TABLE students;--",
  "1; DELETE FROM hosts WHERE 1=1",
  "%' OR '%'='",
  "\\'; SELECT * FROM sqlite_master; --",
  "*/ UNION SELECT 1 /*",
  "a`b) OR (1=1",
];

// `*` is escaped too: inside quotes an unescaped `*` is a wildcard in v2, as Censys reads it.
const quoted = (value: string): string => `"${value.replace(/[\\"*]/g, (char) => `\\${char}`)}"`;
const backticked = (value: string): string => `\`${value.replace(/[\\`]/g, (char) => `\\${char}`)}\``;
const escapedWord = (value: string): string => value.replace(/[^A-Za-z0-9]/g, (char) => `\\${char}`);

const FORMS: [string, (value: string) => string][] = [
  ["keyword match", (v) => `location.country: ${quoted(v)}`],
  ["keyword exact", (v) => `location.country = ${quoted(v)}`],
  ["backtick value", (v) => `location.country: ${backticked(v)}`],
  ["escaped unquoted word", (v) => `location.country: ${escapedWord(v)}`],
  ["text contains", (v) => `autonomous_system.description: ${quoted(v)}`],
  ["side table", (v) => `tags: ${quoted(v)}`],
  ["scoped field", (v) => `services.service_name: ${quoted(v)}`],
  ["scope block", (v) => `services: (service_name: ${quoted(v)} and port: 22)`],
  ["full text", (v) => quoted(v)],
  ["string range", (v) => `location.city: [${quoted(v)} TO ${quoted(v)}]`],
  ["set", (v) => `location.country: {${quoted(v)}, DE}`],
  ["wildcard", (v) => `location.city: ${escapedWord(v)}*`],
];

function expectNoValueInSql(sql: string, value: string): void {
  expect(sql).not.toContain(value);
  expect(sql).not.toMatch(/DROP|DELETE|UNION|sqlite_master|1=1|--/);
  // The only quotes SQL text may hold are the fixed LIKE escape clause's.
  expect(sql.replaceAll("ESCAPE '\\'", "")).not.toMatch(/['"`]/);
}

describe("injection: values only ever travel as parameters", () => {
  for (const [form, build] of FORMS) {
    it.each(HOSTILE)(`${form}: %j stays out of the SQL text`, (value) => {
      const result = compileSearch(build(value), "v2", hostsRegistry);
      if (!result.ok) throw new Error(`${build(value)}: ${result.error.message}`);
      expectNoValueInSql(result.value.sql, value);
      const carried = result.value.params.some((param) => typeof param === "string" && param.length >= 5);
      expect(carried).toBe(true);
    });
  }

  it.each(HOSTILE)("a typed field refuses %j with a QueryError and no SQL", (value) => {
    const result = compileSearch(`autonomous_system.asn: ${quoted(value)}`, "v2", hostsRegistry);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain("expected an integer");
  });

  it.each([
    "location.country'; DROP TABLE hosts; --: x",
    "services: (port: 22) OR 1=1 --",
    "x'); DROP TABLE hosts; -- : y",
  ])("hostile text around field names never reaches the SQL: %j", (input) => {
    const result = compileSearch(input, "v1", hostsRegistry);
    if (result.ok) expect(result.value.sql).not.toMatch(/DROP|1=1|--|'/);
    else expect(result.error.position).toBeGreaterThanOrEqual(0);
  });
});
