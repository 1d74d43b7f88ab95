import { env } from "cloudflare:workers";
import { compileSearch, textWords } from "@scangate/search";
import { beforeAll, describe, expect, it } from "vitest";
import { documentLeaves, type CatalogIndex } from "../src/dataset/field-catalog";
import { fieldRegistry } from "../src/services/field-catalog";
import { getJson, postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

const SOURCES: Record<CatalogIndex, string> = {
  hosts: "SELECT doc FROM hosts",
  ipv4: "SELECT v1_doc AS doc FROM hosts",
  certificates: "SELECT doc FROM certificates",
  websites: "SELECT doc FROM websites",
};

async function documents(index: CatalogIndex): Promise<unknown[]> {
  const { results } = await env.DB.prepare(SOURCES[index]).all<{ doc: string }>();
  return results.map((row) => JSON.parse(row.doc) as unknown);
}

/** The values a document shows at a searchable path. */
function valuesAt(index: CatalogIndex, document: unknown, path: string): (string | number | boolean)[] {
  return documentLeaves(index, document)
    .filter((leaf) => leaf.path === path)
    .map((leaf) => leaf.value);
}

/** How many documents of the index have a value at `path` that `test` accepts. */
async function expectedCount(
  index: CatalogIndex,
  path: string,
  test: (value: string | number | boolean) => boolean,
): Promise<number> {
  return (await documents(index)).filter((doc) => valuesAt(index, doc, path).some(test)).length;
}

/** The first value a document shows at `path`, leaving out empty text (a page without a title). */
async function firstValue(index: CatalogIndex, path: string): Promise<string | number | boolean> {
  for (const doc of await documents(index)) {
    const value = valuesAt(index, doc, path).find((v) => v !== "");
    if (value !== undefined) return value;
  }
  throw new Error(`no ${index} document shows ${path}`);
}

async function count(index: CatalogIndex, query: string): Promise<number> {
  if (index === "hosts") {
    const q = new URLSearchParams({ q: query, per_page: "1" }).toString();
    const { res, body } = await getJson<{ result: { total: number } }>(`/api/v2/hosts/search?${q}`);
    expect(res.status, query).toBe(200);
    return body.result.total;
  }
  const { res, body } = await postJson<{ metadata: { count: number } }>(`/api/v1/search/${index}`, {
    query,
    fields: [],
  });
  expect(res.status, query).toBe(200);
  return body.metadata.count;
}

const hasWord = (word: string) => (value: string | number | boolean) =>
  textWords(String(value)).includes(word);
const sameText = (text: string) => (value: string | number | boolean) =>
  String(value).toLowerCase() === text.toLowerCase();
/** A text field's match: the value's words hold the phrase's words, one after the other. */
const holdsPhrase = (text: string) => (value: string | number | boolean) => {
  const phrase = textWords(text).join(" ");
  return ` ${textWords(String(value)).join(" ")} `.includes(` ${phrase} `);
};

describe("text fields match words, keyword fields whole values", () => {
  it("finds DigiCert Inc certificates by the word DigiCert in the issuer organization", async () => {
    const expected = await expectedCount("certificates", "parsed.issuer.organization", hasWord("digicert"));
    expect(expected).toBeGreaterThan(0);
    expect(await count("certificates", "parsed.issuer.organization: DigiCert")).toBe(expected);
    expect(await count("certificates", "parsed.issuer.organization: Digi")).toBe(0);
    expect(await count("certificates", "parsed.issuer.organization: digi*")).toBe(expected);
  });

  it("finds ASN-TELSTRA hosts by the word telstra in the AS name, in v2 and v1", async () => {
    const expected = await expectedCount("hosts", "autonomous_system.name", hasWord("telstra"));
    expect(expected).toBeGreaterThan(0);
    expect(await count("hosts", "autonomous_system.name: telstra")).toBe(expected);
    expect(await count("ipv4", "autonomous_system.name: telstra")).toBe(expected);
  });

  it("matches a quoted phrase with its words in order only", async () => {
    const title = "services.http.response.status_reason";
    const expected = await expectedCount("hosts", title, (v) => /moved permanently/i.test(String(v)));
    expect(expected).toBeGreaterThan(0);
    expect(await count("hosts", `${title}: "Moved Permanently"`)).toBe(expected);
    expect(await count("hosts", `${title}: "Permanently Moved"`)).toBe(0);
  });

  it("matches a keyword field's whole value, case-insensitively, and not a part of it", async () => {
    const field = "services.tls.cipher_selected";
    const cipher = String(await firstValue("hosts", field));
    const expected = await expectedCount("hosts", field, sameText(cipher));
    expect(await count("hosts", `${field}: ${cipher.toLowerCase()}`)).toBe(expected);
    expect(await count("hosts", `${field}: ${cipher.split("_").slice(0, 2).join("_")}`)).toBe(0);
    expect(await count("hosts", `${field} = ${cipher.toLowerCase()}`)).toBe(0);
  });

  it("takes ranges on numbers and true/false on booleans of leaf fields", async () => {
    const reasons = await expectedCount("hosts", "services.http.response.body_size", (v) => Number(v) >= 150);
    expect(await count("hosts", "services.http.response.body_size >= 150")).toBe(reasons);
    const signing = await expectedCount(
      "certificates",
      "parsed.extensions.key_usage.digital_signature",
      (v) => v === true,
    );
    expect(signing).toBeGreaterThan(0);
    expect(await count("certificates", "parsed.extensions.key_usage.digital_signature: true")).toBe(signing);
  });
});

describe("the fields the documents show and the hand-listed registry did not", () => {
  it.each([
    ["ipv4", "443.https.tls.version"],
    ["ipv4", "443.https.get.title"],
    ["ipv4", "443.https.get.headers.server"],
    ["ipv4", "443.https.tls.certificate.parsed.names"],
    ["ipv4", "tags"],
    ["certificates", "metadata.source"],
    ["hosts", "services.tls.certificates.leaf_data.names"],
    ["hosts", "services.http.response.status_reason"],
    ["hosts", "services.tls.cipher_selected"],
  ] as const)("searches %s %s with the documents' values", async (index, field) => {
    const value = String(await firstValue(index, field));
    const registry = await fieldRegistry(env.DB, index);
    const text = registry.fields[field]?.type === "text";
    const expected = await expectedCount(index, field, text ? holdsPhrase(value) : sameText(value));
    expect(expected).toBeGreaterThan(0);
    expect(await count(index, `${field}: "${value}"`)).toBe(expected);
  });

  it("reports a v1 port-prefixed field with the counts the v1 documents show", async () => {
    const field = "443.https.tls.version";
    const tally = new Map<string, number>();
    for (const doc of await documents("ipv4"))
      for (const value of new Set(valuesAt("ipv4", doc, field).map(String)))
        tally.set(value, (tally.get(value) ?? 0) + 1);
    const { res, body } = await postJson<{ results: { key: string; doc_count: number }[] }>(
      "/api/v1/report/ipv4",
      { query: "*", field, buckets: 50 },
    );
    expect(res.status).toBe(200);
    expect(Object.fromEntries(body.results.map((b) => [b.key, b.doc_count]))).toEqual(
      Object.fromEntries(tally),
    );
  });

  it("aggregates a service leaf per service, as services.port is", async () => {
    const field = "services.tls.cipher_selected";
    let services = 0;
    const hosts = await documents("hosts");
    for (const doc of hosts) services += valuesAt("hosts", doc, field).length;
    const q = new URLSearchParams({ q: "", field, num_buckets: "100" }).toString();
    const { res, body } = await getJson<{ result: { total: number; buckets: { count: number }[] } }>(
      `/api/v2/hosts/aggregate?${q}`,
    );
    expect(res.status).toBe(200);
    // `total` counts matching hosts; the buckets count services.
    expect(body.result.total).toBe(hosts.length);
    expect(body.result.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(services);
  });
});

describe("scoped leaf fields", () => {
  it("holds services: (port: P and tls.cipher_selected: X) on one service", async () => {
    interface Service {
      port: number;
      tls?: { cipher_selected?: string };
    }
    const hosts = (await documents("hosts")) as { services: Service[] }[];
    const cipher = String(await firstValue("hosts", "services.tls.cipher_selected"));
    const withCipher = (s: Service) => s.tls?.cipher_selected === cipher;
    // A port some host serves beside (not with) the cipher, so scoping makes a difference.
    const port = 80;
    const scoped = hosts.filter((h) => h.services.some((s) => s.port === port && withCipher(s))).length;
    const unscoped = hosts.filter(
      (h) => h.services.some((s) => s.port === port) && h.services.some(withCipher),
    ).length;
    expect(unscoped).toBeGreaterThan(scoped);
    expect(await count("hosts", `services: (port: ${port} and tls.cipher_selected: ${cipher})`)).toBe(scoped);
    expect(await count("hosts", `services.port: ${port} and services.tls.cipher_selected: ${cipher}`)).toBe(
      unscoped,
    );
    const on443 = hosts.filter((h) => h.services.some((s) => s.port === 443 && withCipher(s))).length;
    expect(await count("hosts", `same_service(port: 443 and tls.cipher_selected: ${cipher})`)).toBe(on443);
  });
});

describe("unknown fields", () => {
  it("suggests the nearest known field in the v2 422 body", async () => {
    const q = new URLSearchParams({ q: "services.tls.cipher_selectd: x" }).toString();
    const { res, body } = await getJson(`/api/v2/hosts/search?${q}`);
    expect(res.status).toBe(422);
    expect(body).toMatchObject({ code: 422, position: 0, token: "services.tls.cipher_selectd" });
    expect(String(body.detail)).toContain(
      'unknown field "services.tls.cipher_selectd"; did you mean "services.tls.cipher_selected"?',
    );
  });

  it("suggests the nearest known field for a v2 aggregate and a v1 report", async () => {
    const q = new URLSearchParams({ field: "services.http.response.status_reasn" }).toString();
    const aggregate = await getJson(`/api/v2/hosts/aggregate?${q}`);
    expect(aggregate.res.status).toBe(422);
    expect(String(aggregate.body.detail)).toContain('did you mean "services.http.response.status_reason"?');
    const report = await postJson("/api/v1/report/ipv4", { query: "*", field: "443.https.tls.versio" });
    expect(report.res.status).toBe(400);
    expect(report.body).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(report.body.detail)).toContain('did you mean "443.https.tls.version"?');
  });

  it("refuses a leaf listed as not searchable as an unknown field", async () => {
    const { res, body } = await postJson("/api/v1/search/certificates", { query: "raw: abc" });
    expect(res.status).toBe(400);
    expect(String(body.detail)).toContain('unknown field "raw"');
  });
});

describe("leaf searches use the leaf tables' index", () => {
  it.each([
    ["hosts", "services.tls.cipher_selected: x"],
    ["hosts", "services: (port: 443 and tls.cipher_selected: x)"],
    ["hosts", "autonomous_system.name: telstra"],
    ["certificates", "parsed.extensions.key_usage.digital_signature: true"],
  ] as const)("plans %s %s without scanning field_values or field_words", async (index, query) => {
    const registry = await fieldRegistry(env.DB, index);
    const where = compileSearch(query, "v2", registry);
    expect(where.ok).toBe(true);
    if (!where.ok) return;
    const table = registry.root.table;
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT count(*) FROM ${table} r WHERE ${where.value.sql}`,
    )
      .bind(...where.value.params)
      .all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail);
    expect(
      details.some((d) => /SEARCH [vw] USING PRIMARY KEY \(field=/.test(d)),
      details.join("\n"),
    ).toBe(true);
    expect(details.filter((d) => /^SCAN [vw]\b/.test(d))).toEqual([]);
  });
});
