import { v3Envelope, v3OrganizationCreditsSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { publishSnapshots } from "../../../origin/src/snapshots/publish";
import { seedTestDataset } from "../../../origin/test/seed-fixture";

/** The origin's upstream credential in tests (its ORIGIN_ACCOUNTS default). */
export const ORIGIN_CREDENTIAL = { api_id: "origin-local", api_secret: "origin-local-secret" };
/** The origin's local Platform (/v3) account (apps/origin/wrangler.jsonc ORIGIN_ACCOUNTS): a pool entry. */
export const ORIGIN_PLATFORM = {
  token: "censys_origin_local_personal_access_token",
  organization_id: "6f3d2c1b-0a9e-4d8c-b7a6-5e4f3d2c1b0a",
};

/**
 * Seeds the origin's databases (bound here as ORIGIN_DB / ORIGIN_SNAPSHOTS) with the origin's
 * generated test dataset and its published snapshot tables, once per test file.
 */
export async function seedOrigin(): Promise<void> {
  await seedTestDataset(env.ORIGIN_DB);
  await publishSnapshots(env.ORIGIN_DB, env.ORIGIN_SNAPSHOTS);
}

export interface OriginFacts {
  /** IPv4 hosts, in address order. */
  hosts: string[];
  /** A host with an older version, and a time inside that version. */
  historic: { ip: string; atTime: string };
  certificates: string[];
  /** A certificate some host's service presents, and a host with a certificate (so with names). */
  presented: { certificate: string; ip: string };
  websites: string[];
  /** Websites serving HTTPS on 443: each has the web property `<domain>:443`. */
  httpsWebsites: string[];
}

/** Ids of seeded documents, read back from the origin's tables (never hard-coded). */
export async function originFacts(): Promise<OriginFacts> {
  const column = async (sql: string) =>
    (await env.ORIGIN_DB.prepare(sql).all<{ v: string }>()).results.map((r) => r.v);
  const historic = await env.ORIGIN_DB.prepare(
    "select ip, valid_from from host_history where valid_to is not null and ip like '%.%' order by ip limit 1",
  ).first<{ ip: string; valid_from: number }>();
  if (!historic) throw new Error("the seeded dataset has no host history");
  const presented = await env.ORIGIN_DB.prepare(
    "select certificate, ip from host_services where certificate is not null and ip like '%.%' order by certificate limit 1",
  ).first<{ certificate: string; ip: string }>();
  if (!presented) throw new Error("the seeded dataset has no host presenting a certificate");
  return {
    hosts: await column("select ip as v from hosts where ip like '%.%' order by ip_num limit 20"),
    historic: { ip: historic.ip, atTime: new Date(historic.valid_from + 1000).toISOString() },
    certificates: await column("select sha256 as v from certificates order by sha256 limit 20"),
    presented,
    websites: await column("select domain as v from websites order by domain limit 5"),
    httpsWebsites: await column(
      "select domain as v from website_protocols where protocol = '443/https' order by domain limit 5",
    ),
  };
}

/** Asks the origin directly (as the edge's upstream credential), for comparisons. */
export function askOrigin(method: string, path: string, body?: unknown): Promise<Response> {
  const origin = env.ORIGIN;
  if (!origin) throw new Error("no ORIGIN binding");
  return origin.fetch(
    new Request(`http://scangate-origin.internal${path}`, {
      method,
      headers: {
        authorization: `Basic ${btoa(`${ORIGIN_CREDENTIAL.api_id}:${ORIGIN_CREDENTIAL.api_secret}`)}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** The origin organization's balance as its credits endpoint answers it now. */
export async function originBalance(): Promise<number> {
  const origin = env.ORIGIN;
  if (!origin) throw new Error("no ORIGIN binding");
  const res = await origin.fetch(
    new Request(
      `http://scangate-origin.internal/v3/accounts/organizations/${ORIGIN_PLATFORM.organization_id}/credits`,
      { headers: { authorization: `Bearer ${ORIGIN_PLATFORM.token}` } },
    ),
  );
  expect(res.status).toBe(200);
  return v3Envelope(v3OrganizationCreditsSchema).parse(await res.json()).result.balance;
}
