import { env } from "cloudflare:workers";
import { ApiError } from "@scangate/core";
import { convertLegacyQuery, textWords, type IndexRegistry } from "@scangate/search";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogIndex } from "../src/dataset/field-catalog";
import {
  cenqlAggregateField,
  cenqlRegistries,
  compileCenql,
  type CenqlRegistries,
  type CenqlResource,
} from "../src/services/cenql-search";
import { fieldRegistry } from "../src/services/field-catalog";
import { compileSearch, type CompiledWhere } from "../src/services/search-engine";
import { seedTestDataset } from "./seed-fixture";

// CenQL queries run against the seeded dataset: each compiles with compileCenql, runs over its
// resource's table, and must find exactly the rows its legacy (v2 or v1) counterpart finds
// through the legacy search's own compiler. The values in the queries are read from the
// seeded rows, so the cases follow the generator.

const NOW = new Date();

const TABLES: Record<CenqlResource, { table: string; key: string }> = {
  host: { table: "hosts", key: "ip" },
  cert: { table: "certificates", key: "sha256" },
  web: { table: "websites", key: "domain" },
};

async function keys(resource: CenqlResource, where: CompiledWhere): Promise<string[]> {
  const { table, key } = TABLES[resource];
  const { results } = await env.DB.prepare(
    `SELECT r.${key} AS k FROM ${table} r WHERE ${where.sql} ORDER BY r.${key}`,
  )
    .bind(...where.params)
    .all<{ k: string }>();
  return results.map((row) => row.k);
}

async function first<T>(sql: string): Promise<T> {
  const row = await env.DB.prepare(sql).first<T>();
  if (row === null) throw new Error(`the seeded dataset has no row for ${sql}`);
  return row;
}

/** A value of a catalogued leaf (a field only the field catalogue serves), optionally of an SSH service. */
async function leafValue(index: CatalogIndex, path: string, sshService = false): Promise<string> {
  const ssh = sshService ? "AND v.scope IN (SELECT id FROM host_services WHERE service_name = 'SSH')" : "";
  const row = await first<{ value: string }>(
    `SELECT v.value AS value FROM field_values v JOIN field_catalog c ON c.id = v.field
     WHERE c.index_name = '${index}' AND c.path = '${path}' AND length(v.value) > 3 ${ssh} ORDER BY v.doc, v.value LIMIT 1`,
  );
  return row.value;
}

/** The longest word of a text value (long words are less common, so the match says something). */
function wordOf(value: string): string {
  const words = textWords(value).filter((word) => /^[a-z]/.test(word));
  return words.sort((a, b) => b.length - a.length)[0] ?? value;
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface Case {
  cenql: string;
  legacy: string;
  dialect: "v1" | "v2";
  index: CatalogIndex;
  /** The two may legitimately find nothing (a case-sensitive miss). */
  mayBeEmpty?: boolean;
}

type Facts = Awaited<ReturnType<typeof readFacts>>;

async function readFacts() {
  const host = await first<{
    ip: string;
    country: string;
    country_code: string;
    city: string;
    asn: number;
    bgp_prefix: string;
  }>(
    `SELECT ip, country, country_code, city, asn, bgp_prefix FROM hosts WHERE country IN
       (SELECT country FROM hosts GROUP BY country ORDER BY count(*) DESC LIMIT 1) AND city IS NOT NULL ORDER BY ip_num LIMIT 1`,
  );
  const ipRange = {
    low: (await first<{ ip: string }>("SELECT ip FROM hosts ORDER BY ip_num LIMIT 1 OFFSET 10")).ip,
    high: (await first<{ ip: string }>("SELECT ip FROM hosts ORDER BY ip_num LIMIT 1 OFFSET 29")).ip,
  };
  const software = await first<{ vendor: string; product: string }>(
    "SELECT software_vendor AS vendor, software_product AS product FROM host_services WHERE software_product IS NOT NULL GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1",
  );
  const tls = await first<{ certificate: string; version: string; port: number }>(
    "SELECT certificate, tls_version AS version, port FROM host_services WHERE certificate IS NOT NULL AND port = 443 ORDER BY id LIMIT 1",
  );
  const observed = await first<{ low: number; high: number }>(
    "SELECT min(observed_at) AS low, max(observed_at) AS high FROM host_services",
  );
  const cert = await first<{
    sha256: string;
    sha1: string;
    md5: string;
    subject_common_name: string;
    issuer_common_name: string;
    not_before: number;
    validity_length: number;
    key_algorithm: string;
    validation_level: string;
  }>(
    "SELECT sha256, sha1, md5, subject_common_name, issuer_common_name, not_before, validity_length, key_algorithm, validation_level FROM certificates WHERE subject_common_name LIKE '%.%' AND self_signed = 0 ORDER BY sha256 LIMIT 1",
  );
  const certName = await first<{ name: string }>(
    "SELECT name FROM certificate_names WHERE name LIKE '%.%.%' ORDER BY name LIMIT 1",
  );
  const certTag = await first<{ tag: string }>("SELECT tag FROM certificate_tags ORDER BY tag LIMIT 1");
  const site = await first<{ domain: string; asn: number; country_code: string; certificate: string }>(
    "SELECT domain, asn, country_code, certificate FROM websites WHERE certificate IS NOT NULL ORDER BY domain LIMIT 1",
  );
  return {
    host,
    ipRange,
    software,
    tls,
    observed,
    cert,
    certName,
    certTag,
    site,
    asName: wordOf(await leafValue("hosts", "autonomous_system.name")),
    banner: wordOf(await leafValue("hosts", "services.banner", true)),
    title: wordOf(await leafValue("hosts", "services.http.response.html_title")),
    server: wordOf(await leafValue("hosts", "services.http.response.headers.server")),
    organization: wordOf(await leafValue("certificates", "parsed.subject.organization")),
    subjectDn: wordOf(await leafValue("certificates", "parsed.subject_dn")),
    siteTitle: wordOf(await leafValue("websites", "443.https.get.title")),
    siteProduct: await leafValue("websites", "443.https.get.metadata.product"),
    siteVendor: await leafValue("websites", "443.https.get.metadata.manufacturer"),
    siteIssuer: await leafValue("websites", "443.https.tls.certificate.parsed.issuer.organization"),
    siteJarm: await leafValue("websites", "443.https.tls.jarm"),
    siteVuln: await leafValue("websites", "vulns.id"),
  };
}

const v2 = (cenql: string, legacy: string, extra: Partial<Case> = {}): Case => ({
  cenql,
  legacy,
  dialect: "v2",
  index: "hosts",
  ...extra,
});
const ipv4 = (cenql: string, legacy: string): Case => ({ cenql, legacy, dialect: "v1", index: "ipv4" });
const certs = (cenql: string, legacy: string, extra: Partial<Case> = {}): Case => ({
  cenql,
  legacy,
  dialect: "v1",
  index: "certificates",
  ...extra,
});
const sites = (cenql: string, legacy: string): Case => ({ cenql, legacy, dialect: "v1", index: "websites" });

/** The per-port website fields the websites index has for a `<port>.<scheme>.` sub-path. */
function perPort(registry: IndexRegistry, rest: string): string[] {
  return Object.keys(registry.fields).filter((name) =>
    new RegExp(`^\\d+\\.https?\\.${rest.replace(/\./g, "\\.")}$`).test(name),
  );
}

function hostCases(f: Facts): Case[] {
  const { host, software, tls } = f;
  const lower = host.country.toLowerCase();
  return [
    v2(`host.ip: ${host.ip}`, `ip: ${host.ip}`),
    v2(
      `host.ip: ${host.ip.split(".").slice(0, 3).join(".")}.0/24`,
      `ip: ${host.ip.split(".").slice(0, 3).join(".")}.0/24`,
    ),
    v2(`host.ip: [${f.ipRange.low} to ${f.ipRange.high}]`, `ip: [${f.ipRange.low} TO ${f.ipRange.high}]`),
    v2(`host.location.country: "${host.country}"`, `location.country: "${host.country}"`),
    v2(`host.location.country = "${host.country}"`, `location.country = "${host.country}"`),
    v2(`host.location.country: "${lower}"`, `location.country: "${lower}"`),
    v2(`host.location.country = "${lower}"`, `location.country = "${lower}"`, { mayBeEmpty: true }),
    v2(`host.location.country_code: ${host.country_code}`, `location.country_code: ${host.country_code}`),
    v2(`host.location.city: "${host.city}"`, `location.city: "${host.city}"`),
    v2(
      `host.location: (country: "${host.country}" and city: "${host.city}")`,
      `location: (country: "${host.country}" and city: "${host.city}")`,
    ),
    v2(`host: (location.country_code: ${host.country_code})`, `location.country_code: ${host.country_code}`),
    v2(`host.location.city: *`, `location.city: *`),
    v2(`host.autonomous_system.asn: ${host.asn}`, `autonomous_system.asn: ${host.asn}`),
    v2(`host.autonomous_system.asn > ${host.asn}`, `autonomous_system.asn > ${host.asn}`),
    v2(`host.autonomous_system.asn <= ${host.asn}`, `autonomous_system.asn <= ${host.asn}`),
    v2(`host.autonomous_system.asn: [1 to ${host.asn}}`, `autonomous_system.asn: [1 TO ${host.asn}}`),
    v2(
      `host.autonomous_system.bgp_prefix: "${host.bgp_prefix}"`,
      `autonomous_system.bgp_prefix: "${host.bgp_prefix}"`,
    ),
    v2(`host.autonomous_system.name: ${f.asName}`, `autonomous_system.name: ${f.asName}`),
    v2("host.services.port: 22", "services.port: 22"),
    v2("host.services.port: {22, 80, 443}", "services.port: {22, 80, 443}"),
    v2("host.services.port >= 8000", "services.port >= 8000"),
    v2("host.services.port < 100", "services.port < 100"),
    v2("host.services.port: (22 or 2222)", "services.port: (22 or 2222)"),
    v2("host.services.protocol: SSH", "services.service_name: SSH"),
    v2("host.services.protocol = SSH", "services.service_name = SSH"),
    v2("host.services.protocol: ssh", "services.service_name: ssh"),
    v2("host.services.protocol = ssh", "services.service_name = ssh", { mayBeEmpty: true }),
    v2("host.services.protocol: SS?", "services.service_name: SS?"),
    v2("host.services.protocol: {SSH, HTTP}", "services.service_name: {SSH, HTTP}"),
    v2("host.services: (protocol=SSH and not port: 22)", "services: (service_name=SSH and not port: 22)"),
    v2("host.services: (port: 443 and protocol: HTTP)", "same_service(port: 443 and service_name: HTTP)"),
    v2(
      "host.services: (host.services.port: 80 and host.services.protocol: HTTP)",
      "services: (services.port: 80 and services.service_name: HTTP)",
    ),
    v2(
      "host.services.protocol: HTTP and not host.services.port: 80",
      "services.service_name: HTTP and not services.port: 80",
    ),
    v2(
      "host.services: (port: 22) and host.services: (port: 80)",
      "services: (port: 22) and services: (port: 80)",
    ),
    v2("host.services: *", "services: *"),
    v2("host.services.transport_protocol: UDP", "services.transport_protocol: UDP"),
    v2(
      `host.services.software.product: "${software.product}"`,
      `services.software.product: "${software.product}"`,
    ),
    v2(
      `host.services.software.vendor: "${software.vendor}"`,
      `services.software.vendor: "${software.vendor}"`,
    ),
    v2(
      `host.services.software: (vendor: "${software.vendor}" and product: "${software.product}")`,
      `services.software: (vendor: "${software.vendor}" and product: "${software.product}")`,
    ),
    v2(
      `host.services.software.product: ${software.product.slice(0, 3)}*`,
      `services.software.product: ${software.product.slice(0, 3)}*`,
    ),
    v2(
      `host.services.software.product =~ "^${software.product.slice(0, 3)}"`,
      `services.software.product: /${software.product.slice(0, 3)}.*/`,
    ),
    v2(
      `host.services.software.product =~ "${software.product.slice(1, 4)}"`,
      `services.software.product: /.*${software.product.slice(1, 4)}.*/`,
    ),
    v2(
      `host.services.cert.fingerprint_sha256: ${tls.certificate}`,
      `services.certificate: ${tls.certificate}`,
    ),
    v2(
      `host.services: (port: ${tls.port} and cert.fingerprint_sha256: ${tls.certificate})`,
      `services: (port: ${tls.port} and certificate: ${tls.certificate})`,
    ),
    v2(`host.services.tls.version_selected: ${tls.version}`, `services.tls.version_selected: ${tls.version}`),
    v2("host.services.endpoints.http.status_code: 200", "services.http.response.status_code: 200"),
    v2(
      "host.services.endpoints.http.status_code: [400 to 599]",
      "services.http.response.status_code: [400 TO 599]",
    ),
    v2(
      `host.services.endpoints.http.html_title: ${f.title}`,
      `services.http.response.html_title: ${f.title}`,
    ),
    v2(
      `host.services.endpoints.http.headers.server: ${f.server}`,
      `services.http.response.headers.server: ${f.server}`,
    ),
    v2(`host.services.banner: ${f.banner}`, `services.banner: ${f.banner}`),
    v2(
      `host.services: (protocol: SSH and banner: ${f.banner})`,
      `services: (service_name: SSH and banner: ${f.banner})`,
    ),
    v2(
      `host.services.scan_time >= "${isoDay(f.observed.low)}"`,
      `services.observed_at >= "${isoDay(f.observed.low)}"`,
    ),
    v2(
      `host.services.scan_time: ["${isoDay(f.observed.low)}" to "${isoDay(f.observed.high)}"]`,
      `services.observed_at: ["${isoDay(f.observed.low)}" TO "${isoDay(f.observed.high)}"]`,
    ),
    v2(`host.services.scan_time < "now"`, `services.observed_at < now`),
    v2(`host.last_updated_at > "now-50y"`, `last_updated_at > now-50y`),
    v2(`host.last_updated_at < "now-24h"`, `last_updated_at < now-24h`, { mayBeEmpty: true }),
    v2(`host.location.country: \`${host.country}\``, `location.country: \`${host.country}\``),
    v2(`${f.asName}`, `${f.asName}`),
    v2(`"${host.country}"`, `"${host.country}"`),
    v2(`host.services.port: 22 or host.services.port: 443`, `services.port: 22 or services.port: 443`),
    v2("not host.services.port: 22", "not services.port: 22"),
    v2(
      `host.services.port: 22 AND host.location.country: "${host.country}"`,
      `services.port: 22 and location.country: "${host.country}"`,
    ),
    v2(
      `(host.services.port: 22 or host.services.port: 80) and not host.location.country: "${host.country}"`,
      `(services.port: 22 or services.port: 80) and not location.country: "${host.country}"`,
    ),
    v2(`host.services.port: 22 host.services.port: 80`, `services.port: 22 services.port: 80`),
    ipv4("host.services.port: 22", "ports: 22"),
    ipv4("host.location.coordinates.latitude > 0", "location.latitude: {0 TO *]"),
    ipv4(
      `host.autonomous_system.bgp_prefix: "${host.bgp_prefix}"`,
      `autonomous_system.routed_prefix: "${host.bgp_prefix}"`,
    ),
    ipv4("host.services: (port: 443 and extended_service_name: HTTPS)", `protocols: "443/https"`),
    ipv4("host.services: (port: 22 and protocol: SSH)", `protocols: "22/ssh"`),
    ipv4(
      `host.services: (port: 443 and cert.fingerprint_sha256: ${tls.certificate})`,
      `443.https.tls.certificate.parsed.fingerprint_sha256: ${tls.certificate}`,
    ),
    ipv4("host.services: (port: 80 and endpoints.http.status_code: 200)", "80.http.get.status_code: 200"),
  ];
}

function certCases(f: Facts): Case[] {
  const { cert } = f;
  const parent = f.certName.name.split(".").slice(1).join(".");
  return [
    certs(`cert.fingerprint_sha256: ${cert.sha256}`, `parsed.fingerprint_sha256: ${cert.sha256}`),
    certs(`cert.parsed.fingerprint_sha256: ${cert.sha256}`, `parsed.fingerprint_sha256: ${cert.sha256}`),
    certs(`cert.fingerprint_sha1: ${cert.sha1}`, `parsed.fingerprint_sha1: ${cert.sha1}`),
    certs(`cert.fingerprint_md5: ${cert.md5}`, `parsed.fingerprint_md5: ${cert.md5}`),
    certs(`cert.names: "${f.certName.name}"`, `parsed.names: "${f.certName.name}"`),
    certs(`cert.names: *.${parent}`, `parsed.names: *.${parent}`),
    certs(
      `cert.parsed.subject.common_name: "${cert.subject_common_name}"`,
      `parsed.subject.common_name: "${cert.subject_common_name}"`,
    ),
    certs(
      `cert.parsed.issuer.common_name: "${cert.issuer_common_name}"`,
      `parsed.issuer.common_name: "${cert.issuer_common_name}"`,
    ),
    certs(
      `cert.parsed.issuer.common_name =~ "^${cert.issuer_common_name.slice(0, 4)}"`,
      `parsed.issuer.common_name: /${cert.issuer_common_name.slice(0, 4)}.*/`,
    ),
    certs(
      `cert.parsed.subject.organization: ${f.organization}`,
      `parsed.subject.organization: ${f.organization}`,
    ),
    certs(`cert.parsed.subject_dn: ${f.subjectDn}`, `parsed.subject_dn: ${f.subjectDn}`),
    certs(`cert.parsed.validity_period.not_after > "now"`, `parsed.validity.end: {now TO *]`),
    certs(
      `cert.parsed.validity_period.not_before: ["${isoDay(cert.not_before)}" to "${isoDay(cert.not_before)}"]`,
      `parsed.validity.start: [${isoDay(cert.not_before)} TO ${isoDay(cert.not_before)}]`,
    ),
    certs(
      `cert.parsed.validity_period.length_seconds >= ${cert.validity_length}`,
      `parsed.validity.length: [${cert.validity_length} TO *]`,
    ),
    certs(
      `cert.parsed.subject_key_info.key_algorithm.name: ${cert.key_algorithm}`,
      `parsed.subject_key_info.key_algorithm.name: ${cert.key_algorithm}`,
    ),
    certs(
      "cert.parsed.subject_key_info.rsa_public_key.length: 2048",
      "parsed.subject_key_info.rsa_public_key.length: 2048",
    ),
    certs("cert.parsed.signature.self_signed: true", "parsed.signature.self_signed: true"),
    certs(
      "cert.parsed.extensions.basic_constraints.is_ca: true and not cert.parsed.signature.self_signed: true",
      "parsed.extensions.basic_constraints.is_ca: true AND NOT parsed.signature.self_signed: true",
    ),
    certs("cert.validation.nss.valid: true", "validation.nss.valid: true"),
    certs(
      `cert.validation_level: ${cert.validation_level}`,
      `parsed.validation_level: ${cert.validation_level}`,
    ),
    certs(`cert.tags: ${f.certTag.tag}`, `tags: ${f.certTag.tag}`),
    certs("cert.parse_status: success", "metadata.parse_status: success"),
    certs(`cert.added_at < "now"`, "metadata.added_at: [* TO now}"),
    certs(`cert.modified_at < "now"`, "metadata.updated_at: [* TO now}"),
    certs("cert.precert: false", "precert: false"),
    certs(`cert: ("${cert.subject_common_name}")`, `"${cert.subject_common_name}"`),
  ];
}

function siteCases(f: Facts, websites: IndexRegistry): Case[] {
  const { site } = f;
  const anyPort = (rest: string, value: string): string =>
    perPort(websites, rest)
      .map((name) => `${name}: ${value}`)
      .join(" OR ");
  return [
    sites(`web.hostname: "${site.domain}"`, `domain: "${site.domain}"`),
    sites(`web.hostname: ${site.domain.slice(0, 3)}*`, `domain: ${site.domain.slice(0, 3)}*`),
    sites("web.port: 443", "ports: 443"),
    sites("web.port: {80, 8080}", "ports: (80 OR 8080)"),
    sites("web.endpoints.http.status_code: 200", anyPort("get.status_code", "200")),
    sites(`web.endpoints.http.html_title: ${f.siteTitle}`, anyPort("get.title", f.siteTitle)),
    sites(
      `web.cert.fingerprint_sha256: ${site.certificate}`,
      anyPort("tls.certificate.parsed.fingerprint_sha256", site.certificate),
    ),
    // A page's title is in its body too.
    sites(`web.endpoints.http.body: ${f.siteTitle}`, anyPort("get.body", f.siteTitle)),
    sites(`web.software.product: "${f.siteProduct}"`, anyPort("get.metadata.product", `"${f.siteProduct}"`)),
    sites(
      `web.software.vendor: "${f.siteVendor}"`,
      anyPort("get.metadata.manufacturer", `"${f.siteVendor}"`),
    ),
    sites(
      `web.cert.parsed.issuer.organization: "${f.siteIssuer}"`,
      anyPort("tls.certificate.parsed.issuer.organization", `"${f.siteIssuer}"`),
    ),
    sites(`web.jarm.fingerprint: ${f.siteJarm}`, anyPort("tls.jarm", f.siteJarm)),
    sites(`web.vulns.id: ${f.siteVuln}`, `vulns.id: ${f.siteVuln}`),
    sites(`web.location.country_code: ${site.country_code}`, `location.country_code: ${site.country_code}`),
    sites(`web.autonomous_system.asn: ${site.asn}`, `autonomous_system.asn: ${site.asn}`),
    sites(`web.protocols: "443/https"`, `protocols: "443/https"`),
    sites(
      `web.port: 443 and not web.cert.fingerprint_sha256: ${site.certificate}`,
      `ports: 443 AND NOT (${anyPort("tls.certificate.parsed.fingerprint_sha256", site.certificate)})`,
    ),
  ];
}

const RESOURCE_OF: Record<CatalogIndex, CenqlResource> = {
  hosts: "host",
  ipv4: "host",
  certificates: "cert",
  websites: "web",
};

let registries: CenqlRegistries;
let cases: Case[] = [];

beforeAll(async () => {
  await seedTestDataset();
  registries = await cenqlRegistries((index) => fieldRegistry(env.DB, index));
  const facts = await readFacts();
  cases = [...hostCases(facts), ...certCases(facts), ...siteCases(facts, registries.web)];
});

describe("CenQL against the dataset", () => {
  it("binds only a query's own values: catalogue ids are written into the SQL", () => {
    // `web.endpoints.http.status_code` stands for a leaf per endpoint the dataset holds; a
    // seven-port OR of it (a public script's query) must fit D1's bound values however many.
    const { where } = compileCenql("web.endpoints.http.status_code: 200", NOW, registries);
    const leaves = where.sql.match(/SELECT v\.doc FROM field_values v/g) ?? [];
    expect(leaves.length).toBeGreaterThan(1);
    expect(where.params).toEqual(leaves.map(() => 200));
    const ports = [443, 80, 8443, 8080, 8000, 7443, 8888];
    const query = ports
      .map((port) => `web.port: ${port} and web.endpoints.http.status_code: 200`)
      .join(" or ");
    expect(compileCenql(query, NOW, registries).where.params).toHaveLength(
      ports.length * (1 + leaves.length),
    );
  });

  it("runs at least 80 queries over hosts, certificates and web properties", () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    expect(new Set(cases.map((c) => RESOURCE_OF[c.index]))).toEqual(new Set(["host", "cert", "web"]));
  });

  it("finds exactly the rows of the equivalent legacy query, for every case", async () => {
    const failures: string[] = [];
    for (const c of cases) {
      try {
        const { resource, where } = compileCenql(c.cenql, NOW, registries);
        if (resource !== RESOURCE_OF[c.index]) failures.push(`${c.cenql}: searched ${resource}`);
        const registry = await fieldRegistry(env.DB, c.index);
        const expected = await keys(resource, compileSearch(c.legacy, c.dialect, registry, NOW));
        const actual = await keys(resource, where);
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          failures.push(`${c.cenql}: ${actual.length} rows; legacy ${c.legacy}: ${expected.length}`);
        if (expected.length === 0 && !c.mayBeEmpty)
          failures.push(`${c.cenql}: the legacy query ${c.legacy} finds nothing, so the case shows nothing`);
      } catch (error) {
        const detail = error instanceof ApiError ? String(error.extra?.detail) : String(error);
        failures.push(`${c.cenql} (legacy ${c.legacy}): ${detail}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("converts each legacy query to CenQL that finds the same rows", async () => {
    const failures: string[] = [];
    let converted = 0;
    for (const c of cases) {
      const registry = await fieldRegistry(env.DB, c.index);
      const index = c.index === "ipv4" ? "hosts" : c.index;
      const cenql = convertLegacyQuery(c.legacy, c.dialect, index, { registry });
      if (!cenql.ok) {
        // Per-port website fields have no CenQL name of their own (web properties are one port
        // each); a website's place and a certificate tag like `ct` have no Platform counterpart.
        if (
          !/per-port website field|no Platform counterpart|has no Platform condition/.test(
            cenql.error.message,
          )
        )
          failures.push(`${c.legacy}: ${cenql.error.message}`);
        continue;
      }
      converted++;
      try {
        const { resource, where } = compileCenql(cenql.value, NOW, registries);
        const expected = await keys(resource, compileSearch(c.legacy, c.dialect, registry, NOW));
        const actual = await keys(resource, where);
        if (resource !== RESOURCE_OF[c.index] || JSON.stringify(actual) !== JSON.stringify(expected))
          failures.push(
            `${c.legacy} → ${cenql.value}: ${resource} ${actual.length} rows, legacy ${expected.length}`,
          );
      } catch (error) {
        const detail = error instanceof ApiError ? String(error.extra?.detail) : String(error);
        // A legacy OR over every port converts to one condition a port, each of which reads every
        // port again: for the HTTP body (a hashed leaf, more values a condition) that is past the
        // query's value limit, which refuses it as it would any client's query.
        if (/query has too many values/.test(detail)) {
          converted--;
          continue;
        }
        failures.push(`${c.legacy} → ${cenql.value}: ${detail}`);
      }
    }
    expect(failures).toEqual([]);
    expect(converted).toBeGreaterThanOrEqual(cases.length - 8);
  });

  it("does not match everything: a selective query finds fewer rows than its table holds", async () => {
    const all = await keys("host", compileCenql("", NOW, registries).where);
    const some = await keys("host", compileCenql("host.services.port: 22", NOW, registries).where);
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
  });
});

describe("compileCenql without the catalogue's registries", () => {
  it("compiles the hot columns, and names a catalogue-only field as unknown", () => {
    expect(compileCenql("host.services.port: 22", NOW).resource).toBe("host");
    const error = refusal(() => compileCenql("cert.parsed.subject_dn: acme", NOW));
    expect(String(error.extra?.detail)).toMatch(/unknown field "cert\.parsed\.subject_dn"/);
    expect(compileCenql("cert.parsed.subject_dn: acme", NOW, registries).resource).toBe("cert");
  });

  it("reads a query naming hosts and certificates once for each, hosts first", () => {
    const { resource, where } = compileCenql(
      "cert.parsed.subject_dn: acme or host.ip: 1.2.3.4",
      NOW,
      registries,
    );
    expect(resource).toBe("host");
    expect(where.others?.map((part) => part.resource)).toEqual(["cert"]);
  });
});

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an invalid_query error");
}

describe("CenQL errors are invalid_query with where they failed", () => {
  const ERRORS: [string, number, string, RegExp][] = [
    ["services.port: 22", 0, "services.port", /needs a resource prefix.*"host\.services\.port"/],
    [
      "host.services.prot: SSH",
      0,
      "host.services.prot",
      /unknown field "host\.services\.prot".*did you mean "host\.services\.port"/,
    ],
    ["cert.fingerprint_sha265: abc", 0, "cert.fingerprint_sha265", /did you mean "cert\.fingerprint_sha256"/],
    ["host.services: (protocol: SSH and not prot: 22)", 38, "host.services.prot", /unknown field/],
    ["host.services.port: 22 and", 23, "and", /expected a term after "and"/],
    ["host.services.port: (22", 20, "(", /unbalanced "\("/],
    ["host.services.port != 22", 19, "!=", /"!=" is not CenQL/],
    ["same_service(port: 22)", 0, "same_service", /in CenQL write host\.services: \(\.\.\.\)/],
    ['host.services.banner =~ "a+"', 24, '"a+"', /regular expression not supported/],
    ["host.services.banner =~ abc", 24, "abc", /quoted string/],
    ["host.services.port: abc", 20, "abc", /expected an integer/],
    ["host.services: (SSH)", 16, "SSH", /needs a field inside host\.services/],
    ["host.ip: 1.2.3.4\u0000", 16, "\u0000", /cannot be searched for/],
  ];

  it.each(ERRORS)("%j fails at %i on %j", (query, position, token, message) => {
    const error = refusal(() => compileCenql(query, NOW, registries));
    expect(error.kind).toBe("invalid_query");
    expect(error.extra).toMatchObject({ position, token });
    expect(String(error.extra?.detail)).toMatch(message);
  });
});

describe("cenqlAggregateField", () => {
  it("maps CenQL fields to the legacy fields aggregates run on", () => {
    expect(cenqlAggregateField("host.services.protocol", registries)).toEqual({
      resource: "host",
      field: "services.service_name",
      scope: "services",
      level: "host.services",
    });
    // A service leaf of the field catalogue lives in the services scope too.
    expect(cenqlAggregateField("host.services.dns.server_type", registries)).toMatchObject({
      field: "services.dns.server_type",
      level: "host.services",
    });
    expect(cenqlAggregateField("cert.parsed.issuer.common_name", registries)).toEqual({
      resource: "cert",
      field: "parsed.issuer.common_name",
      scope: null,
      level: null,
    });
    expect(cenqlAggregateField("web.port", registries)).toEqual({
      resource: "web",
      field: "ports",
      scope: null,
      level: null,
    });
  });

  it.each([
    ["host.services.protocl", /did you mean "host\.services\.protocol"/],
    ["services.port", /needs a resource prefix/],
    ["web.endpoints.http.status_code", /cannot be aggregated/],
  ])("refuses %j", (field, message) => {
    const error = refusal(() => cenqlAggregateField(field, registries));
    expect(error.kind).toBe("invalid_query");
    expect(String(error.extra?.detail)).toMatch(message);
  });
});
