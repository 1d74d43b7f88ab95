import { env } from "cloudflare:workers";
import { datasetClock, summaryDay } from "../../src/dataset/clock";

/**
 * The seeded documents as the test reads them straight from D1, so expected numbers are
 * computed from the data in plain JavaScript, independently of the SQL the origin runs.
 */

export interface ServiceFacts {
  port: number;
  service_name: string;
  transport_protocol: string;
  extended_service_name: string;
}
export interface HostFacts {
  ip: string;
  ip_num: number;
  doc: { services: ServiceFacts[]; location?: { country?: string }; [key: string]: unknown };
}

async function docs<T>(sql: string): Promise<T[]> {
  const { results } = await env.DB.prepare(sql).all<Record<string, unknown>>();
  return results.map((row) => {
    const parsed: Record<string, unknown> = { ...row };
    for (const [key, value] of Object.entries(row)) {
      if (key.endsWith("doc") && typeof value === "string") parsed[key] = JSON.parse(value);
    }
    return parsed as T;
  });
}

export function hostFacts(): Promise<HostFacts[]> {
  return docs<HostFacts>("select ip, ip_num, doc from hosts order by ip_num");
}

export function v1HostDocs(): Promise<{ ip: string; v1_doc: { ip: string; protocols: string[] } }[]> {
  return docs("select ip, v1_doc from hosts order by ip_num");
}

export function certificateDocs(): Promise<
  { sha256: string; doc: { parsed: Record<string, unknown> } & Record<string, unknown> }[]
> {
  return docs("select sha256, doc from certificates order by sha256");
}

export function websiteDocs(): Promise<{ domain: string; doc: Record<string, unknown> }[]> {
  return docs("select domain, doc from websites order by domain");
}

/** Keys in SQL's order: numbers numerically, text case-insensitively. */
function compareKeys(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return Number(a) - Number(b);
  return a.toLowerCase().localeCompare(b.toLowerCase());
}

/** Value → count, sorted as the origin sorts buckets: count descending, then key. */
export function tally(values: Iterable<string>): { key: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || compareKeys(a.key, b.key));
}

/** The seeded dataset's "now" (the first instant of its seed day), as its summary records it. */
export async function datasetNow(): Promise<number> {
  const row = await env.DB.prepare("SELECT value FROM dataset_meta WHERE key = 'summary'").first<{
    value: string;
  }>();
  const clock = datasetClock(summaryDay(row?.value) ?? "");
  if (clock === null) throw new Error("the seeded dataset records no seed day");
  return clock.now;
}
