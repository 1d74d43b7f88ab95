/**
 * An in-memory catalog and row source: a small ipv4-like series (services as a repeated record
 * with a nested repeated field, protocols as a top-level repeated field), a certificates-like
 * series with repeated `parsed.names`, and a generated `numbers` series of any size. The source
 * pages like a real one and records every scan request.
 */
import { describeSqlError } from "../src/errors";
import { runPlan, type RunOptions } from "../src/execute";
import { SQL_LIMITS } from "../src/limits";
import { prepareQuery, type Plan, type ResultColumn } from "../src/plan";
import type {
  Catalog,
  FieldDef,
  ResolvedTable,
  RowSource,
  ScanRequest,
  SeriesSchema,
  SourceRow,
} from "../src/source";

export const IPV4: SeriesSchema = {
  series: "ipv4",
  records: ["services"],
  fields: [
    { name: "ip", type: "STRING", mode: "NULLABLE" },
    { name: "location.country", type: "STRING", mode: "NULLABLE" },
    { name: "location.city", type: "STRING", mode: "NULLABLE" },
    { name: "autonomous_system.asn", type: "INTEGER", mode: "NULLABLE" },
    { name: "autonomous_system.name", type: "STRING", mode: "NULLABLE" },
    { name: "last_updated_at", type: "TIMESTAMP", mode: "NULLABLE" },
    { name: "protocols", type: "STRING", mode: "REPEATED" },
    { name: "services.port", type: "INTEGER", mode: "NULLABLE", record: "services" },
    { name: "services.service_name", type: "STRING", mode: "NULLABLE", record: "services" },
    { name: "services.transport_protocol", type: "STRING", mode: "NULLABLE", record: "services" },
    { name: "services.tls.certificate.names", type: "STRING", mode: "REPEATED", record: "services" },
  ] satisfies FieldDef[],
};

export const CERTIFICATES: SeriesSchema = {
  series: "certificates",
  records: [],
  fields: [
    { name: "fingerprint_sha256", type: "STRING", mode: "NULLABLE" },
    { name: "parsed.subject_dn", type: "STRING", mode: "NULLABLE" },
    { name: "parsed.names", type: "STRING", mode: "REPEATED" },
    { name: "parsed.validity.start", type: "TIMESTAMP", mode: "NULLABLE" },
    { name: "validation.nss.valid", type: "BOOLEAN", mode: "NULLABLE" },
  ],
};

export const NUMBERS: SeriesSchema = {
  series: "numbers",
  records: [],
  fields: [
    { name: "n", type: "INTEGER", mode: "NULLABLE" },
    { name: "half", type: "FLOAT", mode: "NULLABLE" },
    { name: "parity", type: "STRING", mode: "NULLABLE" },
  ],
};

/** A series with two repeated records, which `SELECT *` cannot flatten together. */
export const WEBSITES: SeriesSchema = {
  series: "websites",
  records: ["endpoints", "dns_records"],
  fields: [
    { name: "name", type: "STRING", mode: "NULLABLE" },
    { name: "endpoints.path", type: "STRING", mode: "NULLABLE", record: "endpoints" },
    { name: "dns_records.value", type: "STRING", mode: "NULLABLE", record: "dns_records" },
  ],
};

const service = (port: number, name: string, transport: string, names?: string[]) => ({
  port,
  service_name: name,
  transport_protocol: transport,
  ...(names ? { "tls.certificate.names": names } : {}),
});

export const HOSTS: SourceRow[] = [
  {
    ip: "1.1.1.1",
    "location.country": "US",
    "location.city": "San Francisco",
    "autonomous_system.asn": 13335,
    "autonomous_system.name": "CLOUDFLARENET",
    last_updated_at: "2026-10-31T10:00:00.000Z",
    protocols: ["443/https", "80/http"],
    services: [
      service(443, "HTTP", "TCP", ["one.one.one.one", "cloudflare-dns.com"]),
      service(80, "HTTP", "TCP"),
    ],
  },
  {
    ip: "8.8.8.8",
    "location.country": "US",
    "location.city": "Mountain View",
    "autonomous_system.asn": 15169,
    "autonomous_system.name": "GOOGLE",
    last_updated_at: "2026-10-30T08:00:00.000Z",
    protocols: ["53/dns", "443/https"],
    services: [service(53, "DNS", "UDP"), service(443, "HTTP", "TCP", ["dns.google"])],
  },
  {
    ip: "10.0.0.1",
    "location.country": "DE",
    "location.city": "Berlin",
    "autonomous_system.asn": 3320,
    "autonomous_system.name": "DTAG",
    last_updated_at: "2026-10-01T00:00:00.000Z",
    protocols: ["22/ssh"],
    services: [service(22, "SSH", "TCP")],
  },
  {
    ip: "10.0.0.2",
    "location.country": "DE",
    "location.city": null,
    "autonomous_system.asn": null,
    "autonomous_system.name": null,
    last_updated_at: null,
    protocols: [],
    services: [],
  },
  {
    ip: "192.168.1.1",
    "location.country": null,
    "location.city": null,
    "autonomous_system.asn": 64512,
    "autonomous_system.name": "PRIVATE",
    last_updated_at: "2026-09-15T12:30:00.000Z",
    protocols: ["22/ssh", "443/http"],
    services: [service(22, "SSH", "TCP"), service(443, "HTTP", "TCP")],
  },
  {
    ip: "203.0.113.5",
    "location.country": "JP",
    "location.city": "Tokyo",
    "autonomous_system.asn": 2497,
    "autonomous_system.name": "IIJ",
    last_updated_at: "2026-10-31T23:59:59.000Z",
    protocols: ["8080/http"],
    services: [service(8080, "HTTP", "TCP", ["example.jp", "www.example.jp"])],
  },
];

export const CERTS: SourceRow[] = [
  {
    fingerprint_sha256: "aa11",
    "parsed.subject_dn": "CN=one.one.one.one",
    "parsed.names": ["one.one.one.one", "cloudflare-dns.com"],
    "parsed.validity.start": "2026-01-01T00:00:00.000Z",
    "validation.nss.valid": true,
  },
  {
    fingerprint_sha256: "bb22",
    "parsed.subject_dn": "CN=dns.google",
    "parsed.names": ["dns.google"],
    "parsed.validity.start": "2026-06-01T00:00:00.000Z",
    "validation.nss.valid": true,
  },
  {
    fingerprint_sha256: "cc33",
    "parsed.subject_dn": "CN=example.jp",
    "parsed.names": ["example.jp", "www.example.jp"],
    "parsed.validity.start": "2025-12-31T12:00:00.000Z",
    "validation.nss.valid": false,
  },
  {
    fingerprint_sha256: "dd44",
    "parsed.subject_dn": null,
    "parsed.names": [],
    "parsed.validity.start": null,
    "validation.nss.valid": null,
  },
];

export function numberRows(count: number): SourceRow[] {
  return Array.from({ length: count }, (_, i) => ({
    n: i + 1,
    half: (i + 1) / 2,
    parity: i % 2 === 0 ? "odd" : "even",
  }));
}

const SCHEMAS: Record<string, SeriesSchema> = {
  ipv4: IPV4,
  certificates: CERTIFICATES,
  numbers: NUMBERS,
  websites: WEBSITES,
};

export const catalog: Catalog = {
  resolve(name) {
    const lower = name.toLowerCase();
    const [series, day] = lower.split(".");
    const schema = series !== undefined && Object.hasOwn(SCHEMAS, series) ? SCHEMAS[series] : undefined;
    if (!schema || lower.split(".").length > 2) return null;
    const resolvedDay = day === undefined || day === series ? "20261031" : day;
    if (resolvedDay !== "20261031" && resolvedDay !== "20261030") return null;
    return { name: `${schema.series}.${resolvedDay}`, series: schema.series, day: resolvedDay, schema };
  },
};

/** A RowSource over arrays, paging by `batchRows`, recording each request. */
export class MemorySource implements RowSource {
  readonly requests: ScanRequest[] = [];

  constructor(private readonly tables: Record<string, SourceRow[]> = {}) {}

  rowsOf(table: ResolvedTable): SourceRow[] {
    if (table.series === "ipv4") return HOSTS;
    if (table.series === "certificates") return CERTS;
    if (table.series === "websites")
      return [{ name: "example.com", endpoints: [{ path: "/" }], dns_records: [{ value: "1.2.3.4" }] }];
    return this.tables[table.series] ?? numberRows(10);
  }

  scan(request: ScanRequest) {
    this.requests.push(request);
    const rows = this.rowsOf(request.table);
    const start = request.after === null ? 0 : Number(request.after);
    const end = Math.min(rows.length, start + request.batchRows);
    return Promise.resolve({ rows: rows.slice(start, end), next: end < rows.length ? String(end) : null });
  }
}

/** Runs `fn` with one of SQL_LIMITS lowered, so a bound can be reached with a small table. */
export async function withLimit<T>(
  name: keyof typeof SQL_LIMITS,
  value: number,
  fn: () => Promise<T>,
): Promise<T> {
  const limits = SQL_LIMITS as Record<string, number>;
  const saved = limits[name] as number;
  limits[name] = value;
  try {
    return await fn();
  } finally {
    limits[name] = saved;
  }
}

export function prepare(sql: string): Plan {
  const result = prepareQuery(sql, catalog);
  if (!result.ok) throw new Error(`expected the query to plan: ${describeSqlError(result.error)}`);
  return result.value;
}

/** The error a query is refused with, as a client reads it (`message at [line:column]`). */
export function refusal(sql: string): string {
  const result = prepareQuery(sql, catalog);
  if (result.ok) throw new Error(`expected the query to be refused: ${sql}`);
  return describeSqlError(result.error);
}

export interface Answer {
  columns: readonly ResultColumn[];
  rows: unknown[][];
  batches: number;
  source: MemorySource;
}

export async function run(
  sql: string,
  options: Partial<RunOptions> & { source?: MemorySource } = {},
): Promise<Answer> {
  const plan = prepare(sql);
  const source = options.source ?? new MemorySource();
  const rows: unknown[][] = [];
  let batches = 0;
  for await (const batch of runPlan(plan, source, {
    deadline: Date.now() + 60_000,
    timeLimitMs: 30_000,
    maxRows: 100_000,
    ...options,
  })) {
    rows.push(...batch);
    batches++;
  }
  return { columns: plan.columns, rows, batches, source };
}

/** The rows of a query. */
export async function rowsOf(
  sql: string,
  options?: Partial<RunOptions> & { source?: MemorySource },
): Promise<unknown[][]> {
  return (await run(sql, options)).rows;
}

/** The message a running query fails with. */
export async function runFailure(
  sql: string,
  options?: Partial<RunOptions> & { source?: MemorySource },
): Promise<string> {
  try {
    await run(sql, options);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error(`expected the query to fail: ${sql}`);
}
