import { env } from "cloudflare:workers";
import {
  reportResponseSchema,
  searchResponseSchema,
  v3Envelope,
  v3SearchAggregateResponseSchema,
  v3SearchQueryResponseSchema,
  type V1Index,
} from "@scangate/core";
import { convertLegacyQuery, convertLegacyReportField } from "@scangate/search";
import { beforeAll, describe, expect, it } from "vitest";
import { postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";
import { v3Post } from "./v3-requests";

/**
 * v1 searches and reports as the Platform answers them: each v1 query converted to CenQL and
 * asked of the origin's /v3 search must find the same documents as the origin's own v1 search,
 * and each v1 report field asked of its /v3 aggregate must give the v1 report's buckets.
 */

type Json = Record<string, unknown>;
type Index = "hosts" | "websites" | "certificates";

const V1_INDEX: Record<Index, V1Index> = {
  hosts: "ipv4",
  websites: "websites",
  certificates: "certificates",
};
const V1_ID: Record<Index, string> = {
  hosts: "ip",
  websites: "domain",
  certificates: "parsed.fingerprint_sha256",
};

let ipv4: Json[];
let websites: Json[];

beforeAll(async () => {
  await seedTestDataset();
  const hosts = await env.DB.prepare("select v1_doc as doc from hosts").all<{ doc: string }>();
  const sites = await env.DB.prepare("select doc from websites").all<{ doc: string }>();
  ipv4 = hosts.results.map((r) => JSON.parse(r.doc) as Json);
  websites = sites.results.map((r) => JSON.parse(r.doc) as Json);
});

/** Every id the origin's v1 search finds, page by page. */
async function v1Ids(index: Index, query: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { res, body } = await postJson(`/api/v1/search/${V1_INDEX[index]}`, {
      query,
      page,
      fields: [V1_ID[index]],
    });
    expect(res.status, query).toBe(200);
    const parsed = searchResponseSchema.parse(body);
    for (const result of parsed.results) ids.push(String((result as Json)[V1_ID[index]]));
    if (page >= parsed.metadata.pages) return ids.sort();
  }
}

/** Every id the origin's /v3 search finds for the CenQL (a website once per name). */
async function v3Ids(index: Index, query: string): Promise<string[]> {
  const ids = new Set<string>();
  let token = "";
  do {
    const { res, body } = await v3Post("/v3/global/search/query", {
      query,
      page_size: 100,
      ...(token ? { page_token: token } : {}),
    });
    expect(res.status, query).toBe(200);
    const page = v3Envelope(v3SearchQueryResponseSchema).parse(body).result;
    for (const hit of page.hits) {
      if (hit.host_v1?.resource.ip) ids.add(hit.host_v1.resource.ip);
      if (hit.webproperty_v1?.resource.hostname) ids.add(hit.webproperty_v1.resource.hostname);
      if (hit.certificate_v1?.resource.fingerprint_sha256)
        ids.add(hit.certificate_v1.resource.fingerprint_sha256);
    }
    token = page.next_page_token;
  } while (token);
  return [...ids].sort();
}

function converted(query: string, index: Index): string {
  const result = convertLegacyQuery(query, "v1", index);
  if (!result.ok) throw new Error(`${query}: ${result.error.message}`);
  return result.value;
}

/** A value the v1 documents have at `path` (per-port paths included). */
function some(docs: Json[], path: string): string {
  for (const doc of docs) {
    let value: unknown = doc;
    for (const part of path.split(".")) value = (value as Json | undefined)?.[part];
    if (typeof value === "string" && value !== "") return value;
  }
  throw new Error(`no document has ${path}`);
}

describe("v1 searches converted to CenQL find what the v1 search finds", () => {
  const CASES: [string, Index, (() => string) | string][] = [
    ["a country", "hosts", () => `location.country_code: ${some(ipv4, "location.country_code")}`],
    ["a port", "hosts", "ports: 22"],
    ["a protocol", "hosts", 'protocols: "22/ssh"'],
    ["an HTTP title on 80", "hosts", () => `80.http.get.title: "${some(ipv4, "80.http.get.title")}"`],
    ["a TLS version on 443", "hosts", "443.https.tls.version: TLSv1.2"],
    [
      "a certificate served on 443",
      "hosts",
      () =>
        `443.https.tls.certificate.parsed.fingerprint_sha256: ${some(ipv4, "443.https.tls.certificate.parsed.fingerprint_sha256")}`,
    ],
    ["an SSH banner", "hosts", () => `22.ssh.v2.banner.software: ${some(ipv4, "22.ssh.v2.banner.software")}`],
    ["either of two", "hosts", "ports: 21 OR ports: 3306"],
    [
      "a website's title on 443",
      "websites",
      () => `443.https.get.title: "${some(websites, "443.https.get.title")}"`,
    ],
    ["a website's name", "websites", () => `domain: ${some(websites, "domain")}`],
    ["trusted certificates", "certificates", "tags: trusted"],
    // (Not `expired`: the dataset judged expiry at its own fixed instant, the search at today's.)
    ["DV leaves", "certificates", "+tags: dv +tags: leaf"],
    ["self-signed roots", "certificates", "tags: root"],
  ];

  it.each(CASES)("%s (%s)", async (_name, index, query) => {
    const text = typeof query === "function" ? query() : query;
    const expected = await v1Ids(index, text);
    expect(expected.length, text).toBeGreaterThan(0);
    expect(await v3Ids(index, converted(text, index)), text).toEqual(expected);
  });
});

describe("v1 report fields read from the Platform's aggregate give the v1 report's buckets", () => {
  const CASES: [string, Index, string][] = [
    ["location.country", "hosts", "ports: 22"],
    ["ports", "hosts", ""],
    ["443.https.tls.version", "hosts", ""],
    ["80.http.get.headers.server", "hosts", "ports: 80"],
    ["parsed.issuer.organization", "certificates", "tags: trusted"],
    // (Not a per-port website field: the origin's web properties cannot aggregate those.)
    ["ports", "websites", ""],
  ];

  it.each(CASES)("%s (%s, query %j)", async (field, index, query) => {
    const { res, body } = await postJson(`/api/v1/report/${V1_INDEX[index]}`, { query, field, buckets: 500 });
    expect(res.status).toBe(200);
    const report = reportResponseSchema.parse(body);
    expect(report.results.length).toBeGreaterThan(0);
    const breakdown = convertLegacyReportField(field, index);
    if (!breakdown.ok) throw breakdown.error;
    const { condition, countByLevel, filterByQuery, legacyKey } = breakdown.value;
    const cenql = [query === "" ? null : converted(query, index), condition].filter((q) => q !== null);
    const { res: aggregated, body: answer } = await v3Post("/v3/global/search/aggregate", {
      query: cenql.map((q) => `(${q})`).join(" and "),
      field: breakdown.value.field,
      number_of_buckets: 1000,
      ...(countByLevel ? { count_by_level: countByLevel } : {}),
      ...(filterByQuery ? { filter_by_query: true } : {}),
    });
    expect(aggregated.status, JSON.stringify(answer)).toBe(200);
    const buckets = v3Envelope(v3SearchAggregateResponseSchema).parse(answer).result.buckets;
    const platform = new Map<string, number>();
    for (const { key, count } of buckets)
      platform.set(legacyKey(key), (platform.get(legacyKey(key)) ?? 0) + count);
    expect(Object.fromEntries(platform)).toEqual(
      Object.fromEntries(report.results.map((r) => [r.key, r.doc_count])),
    );
  });
});
