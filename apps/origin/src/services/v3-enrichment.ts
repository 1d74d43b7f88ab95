import type { V3Host, V3HostEnrichment } from "@scangate/core";

/**
 * Host enrichment: what a SOC enriches an alert with, from the host's Platform document: its
 * place, names and labels, and per service its port, protocol, scan time, labels and threats.
 * It costs no credits; an organization makes up to V3_ENRICHMENTS_PER_DAY calls a UTC day.
 */

const SERVICE_FIELDS = ["port", "protocol", "scan_time", "labels", "threats"] as const;

export function hostEnrichment(host: V3Host): V3HostEnrichment {
  const { services, ...rest } = host;
  const {
    operating_system: _os,
    hardware: _hardware,
    ...kept
  } = rest as V3Host & { operating_system?: unknown; hardware?: unknown };
  return {
    ...kept,
    services: (services ?? []).map((service) => {
      const fields = service as Record<string, unknown>;
      return Object.fromEntries(
        SERVICE_FIELDS.flatMap((f) => (fields[f] === undefined ? [] : [[f, fields[f]]])),
      );
    }),
  };
}

/**
 * Counts one enrichment call of the organization on `day` (YYYY-MM-DD), unless it has made
 * `max` already: true when counted.
 */
export async function countEnrichment(
  db: D1Database,
  organizationId: string,
  day: string,
  max: number,
): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO v3_enrichment_usage (organization_id, day, calls) VALUES (?, ?, 1)
       ON CONFLICT (organization_id, day) DO UPDATE SET calls = calls + 1 WHERE calls < ?
       RETURNING calls`,
    )
    .bind(organizationId, day, max)
    .first<{ calls: number }>();
  // One day's row per organization is enough: earlier days are dropped as a new one starts.
  if (row?.calls === 1)
    await db
      .prepare("DELETE FROM v3_enrichment_usage WHERE organization_id = ? AND day < ?")
      .bind(organizationId, day)
      .run();
  return row !== null;
}
