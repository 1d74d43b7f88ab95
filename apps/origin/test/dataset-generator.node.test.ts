import { X509Certificate, createHash } from "node:crypto";
import tls from "node:tls";
import {
  certificateDocumentSchema,
  hostDocumentSchema,
  ipv4DocumentSchema,
  TRUST_STORES,
  websiteDocumentSchema,
  type CertificateDocument,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { datasetClock } from "../src/dataset/clock";
import { AUTHORITIES } from "../src/dataset/certs/authorities";
import { generateDataset, MIN_LEAVES, type DatasetOptions } from "../src/dataset/generate";
import { THREATS } from "../src/dataset/threats";
import { hostNames } from "../src/services/host-names";
import { InsertBatcher, type DatasetTable, type Row } from "../src/dataset/sql";

const OPTIONS: DatasetOptions = {
  seed: "node-test",
  day: "2026-11-27",
  hosts: 60,
  certs: 200,
  rootPems: tls.rootCertificates,
};
const NOW = datasetClock(OPTIONS.day)?.now ?? 0;

interface Generated {
  rows: Map<DatasetTable, Row[]>;
  sqlHash: string;
}

async function generate(options: DatasetOptions): Promise<Generated> {
  const rows = new Map<DatasetTable, Row[]>();
  const hash = createHash("sha256");
  const batcher = new InsertBatcher((statement) => hash.update(statement));
  await generateDataset(options, {
    add(table, row) {
      const list = rows.get(table);
      if (list) list.push(row);
      else rows.set(table, [row]);
      batcher.add(table, row);
    },
    drain: () => Promise.resolve(),
  });
  batcher.flush();
  return { rows, sqlHash: hash.digest("hex") };
}

let dataset: Generated;
let certs: { sha256: string; doc: CertificateDocument }[];

function table(name: DatasetTable): Row[] {
  return dataset.rows.get(name) ?? [];
}

function certificate(predicate: (doc: CertificateDocument, sha256: string) => boolean): CertificateDocument {
  const found = certs.find((c) => predicate(c.doc, c.sha256));
  if (!found) throw new Error("no certificate matches");
  return found.doc;
}

beforeAll(async () => {
  dataset = await generate(OPTIONS);
  certs = table("certificates").map((row) => ({
    sha256: String(row.sha256),
    doc: certificateDocumentSchema.parse(JSON.parse(String(row.doc))),
  }));
});

describe("dataset generator", () => {
  it("produces byte-identical SQL for the same seed and sizes, and different SQL for another seed", async () => {
    const again = await generate(OPTIONS);
    expect(again.sqlHash).toBe(dataset.sqlHash);
    const other = await generate({ ...OPTIONS, seed: "another-seed", hosts: 5 });
    expect(other.sqlHash).not.toBe(dataset.sqlHash);
  });

  it("includes every root of Node's store and the requested number of certificates", () => {
    const roots = tls.rootCertificates.map((pem) =>
      new X509Certificate(pem).fingerprint256.replace(/:/g, "").toLowerCase(),
    );
    const stored = new Set(certs.map((c) => c.sha256));
    for (const root of roots) expect(stored.has(root)).toBe(true);
    expect(certs.length).toBe(OPTIONS.certs);
  });

  it("computes every fingerprint from the raw DER", () => {
    for (const { sha256, doc } of certs) {
      const der = Buffer.from(doc.raw, "base64");
      expect(doc.parsed.fingerprint_sha256).toBe(sha256);
      expect(createHash("sha256").update(der).digest("hex")).toBe(sha256);
      expect(createHash("sha1").update(der).digest("hex")).toBe(doc.parsed.fingerprint_sha1);
      expect(createHash("md5").update(der).digest("hex")).toBe(doc.parsed.fingerprint_md5);
      const x509 = new X509Certificate(der);
      expect(BigInt(`0x${x509.serialNumber}`).toString(10)).toBe(doc.parsed.serial_number);
      expect(Date.parse(doc.parsed.validity.end)).toBe(Date.parse(x509.validTo));
    }
  });

  it("validates a generated leaf through its intermediate to its generated root, as Node verifies it", () => {
    const leaf = certificate((d) => d.tags?.includes("leaf") === true && d.validation?.apple?.valid === true);
    const path = leaf.validation?.apple?.paths[0] ?? [];
    expect(path).toHaveLength(3);
    const [leafSha, intermediateSha, rootSha] = path;
    const byHash = new Map(
      certs.map((c) => [c.sha256, new X509Certificate(Buffer.from(c.doc.raw, "base64"))]),
    );
    const [l, i, r] = [
      byHash.get(leafSha ?? ""),
      byHash.get(intermediateSha ?? ""),
      byHash.get(rootSha ?? ""),
    ];
    expect(l && i && r).toBeTruthy();
    expect(l?.verify(i?.publicKey ?? l.publicKey)).toBe(true);
    expect(i?.verify(r?.publicKey ?? i.publicKey)).toBe(true);
    expect(r?.verify(r.publicKey)).toBe(true);
    expect(leaf.parsed.signature.valid).toBe(true);
    // The generated roots are not Mozilla's: the nss store does not trust the leaf.
    expect(leaf.validation?.nss?.valid).toBe(false);
  });

  it("trusts Node's real roots in the nss store, each as its own path", () => {
    const root = certificate(
      (d) => d.tags?.includes("nss-root") === true && d.validation?.nss?.valid === true,
    );
    expect(root.validation?.nss?.paths).toEqual([[root.parsed.fingerprint_sha256]]);
    expect(root.parsed.signature.self_signed).toBe(true);
    expect(root["validation.nss.valid"]).toBe(true);
  });

  it("never marks an expired certificate valid", () => {
    const expired = certs.filter((c) => Date.parse(c.doc.parsed.validity.end) < NOW);
    expect(expired.length).toBeGreaterThan(0);
    for (const { doc } of expired) {
      for (const store of TRUST_STORES) expect(doc.validation?.[store]?.valid).toBe(false);
      expect(doc.tags).toContain("expired");
    }
  });

  it("flags weak RSA keys with the zlint key-size lint", () => {
    const weak = certs.filter((c) => (c.doc.parsed.subject_key_info.rsa_public_key?.length ?? 4096) < 2048);
    expect(weak.length).toBeGreaterThan(0);
    for (const { doc } of weak) {
      expect(doc.zlint?.lints.e_rsa_mod_less_than_2048_bits).toBe(true);
      expect(doc.zlint?.errors_present).toBe(true);
      expect(doc.tags).toContain("weak-key");
    }
    const strong = certificate((d) => (d.parsed.subject_key_info.rsa_public_key?.length ?? 0) >= 2048);
    expect(strong.zlint?.lints.e_rsa_mod_less_than_2048_bits).toBeUndefined();
  });

  it("builds host, ipv4 and website documents that parse with the core schemas", () => {
    expect(table("hosts")).toHaveLength(OPTIONS.hosts);
    for (const row of table("hosts")) {
      const doc = hostDocumentSchema.parse(JSON.parse(String(row.doc)));
      expect(doc.ip).toBe(row.ip);
      const v1 = ipv4DocumentSchema.parse(JSON.parse(String(row.v1_doc)));
      expect(v1.protocols).toEqual(
        [...new Set(doc.services.map((s) => `${s.port}/${s.extended_service_name.toLowerCase()}`))].sort(),
      );
    }
    for (const row of table("host_history")) hostDocumentSchema.parse(JSON.parse(String(row.doc)));
    for (const row of table("websites")) websiteDocumentSchema.parse(JSON.parse(String(row.doc)));
  });

  it("keeps each host's history contiguous, ending in one current version", () => {
    const byIp = new Map<string, Row[]>();
    for (const row of table("host_history"))
      byIp.set(String(row.ip), [...(byIp.get(String(row.ip)) ?? []), row]);
    expect(byIp.size).toBe(OPTIONS.hosts);
    for (const versions of byIp.values()) {
      versions.forEach((v, i) => expect(v.valid_to).toBe(versions[i + 1]?.valid_from ?? null));
    }
  });

  it("gives each host the names the names routes read off it, and its network's reverse name", () => {
    const namesBySha = new Map(certs.map((c) => [c.sha256, c.doc.parsed.names ?? []]));
    let named = 0;
    let reversed = 0;
    for (const row of table("hosts")) {
      const doc = JSON.parse(String(row.doc)) as {
        dns?: { names?: string[]; reverse_dns?: { names: string[] } };
        autonomous_system: { asn: number };
        whois?: { network?: { handle?: string }; organization?: { name?: string } };
      };
      expect(doc.dns?.names ?? []).toEqual(hostNames(doc, namesBySha));
      if (doc.dns?.names) named++;
      if (doc.dns?.reverse_dns) reversed++;
      expect(doc.whois?.organization?.name).toBeTruthy();
    }
    expect(named).toBeGreaterThan(0);
    expect(reversed).toBeGreaterThan(table("hosts").length / 2);
  });

  it("plants threats from the catalogue on a minority of hosts, and risks on a minority of services", () => {
    const threatNames = new Set(THREATS.map((t) => t.name));
    let threatened = 0;
    let services = 0;
    let vulnerable = 0;
    for (const row of table("hosts")) {
      const doc = JSON.parse(String(row.doc)) as { services: Record<string, unknown>[] };
      let hasThreat = false;
      for (const service of doc.services) {
        services++;
        const threats = (service.threats ?? []) as { name: string }[];
        for (const threat of threats) expect(threatNames.has(threat.name)).toBe(true);
        hasThreat ||= threats.length > 0;
        const vulns = (service.vulns ?? []) as { id: string; metrics: { cvss_v31: { score: number } } }[];
        for (const vuln of vulns) {
          expect(vuln.id).toMatch(/^CVE-\d{4}-\d{4,}$/);
          expect(vuln.metrics.cvss_v31.score).toBeGreaterThan(0);
        }
        if (vulns.length > 0) vulnerable++;
      }
      if (hasThreat) threatened++;
    }
    expect(threatened).toBeGreaterThan(0);
    expect(threatened).toBeLessThan(table("hosts").length / 5);
    expect(vulnerable).toBeGreaterThan(0);
    expect(vulnerable).toBeLessThan(services / 2);
  });

  it("ends its history on the seed day, and another day moves it there", async () => {
    const times = (rows: Row[]) => rows.map((row) => Number(row.last_updated_at));
    for (const time of times(table("hosts"))) expect(time).toBeLessThanOrEqual(NOW);
    expect(Math.max(...times(table("hosts")))).toBeGreaterThan(NOW - 86_400_000);
    const meta = table("dataset_meta").find((row) => row.key === "summary");
    expect((JSON.parse(String(meta?.value)) as { day: string }).day).toBe(OPTIONS.day);
    const day = "2026-12-04";
    const later = await generate({ ...OPTIONS, day });
    expect(later.sqlHash).not.toBe(dataset.sqlHash);
    const laterNow = datasetClock(day)?.now ?? 0;
    const laterHosts = later.rows.get("hosts") ?? [];
    for (const time of times(laterHosts)) expect(time).toBeLessThanOrEqual(laterNow);
    expect(Math.max(...times(laterHosts))).toBeGreaterThan(laterNow - 86_400_000);
  });

  it("has a precertificate on every seed day, even where no leaf draws one, keeping the number of certificates", async () => {
    // Seed days whose 20 leaves draw no precertificate (4% of CA-issued leaves); no real roots,
    // so the catalogue is the generated CAs, the leaves and the threats' certificates.
    const threatLeaves = THREATS.filter((threat) => threat.certificate).length;
    for (const day of ["2026-11-20", "2026-11-22", "2026-11-23"]) {
      const small = await generate({ seed: "node-test", day, hosts: 1, certs: 0, rootPems: [] });
      const rows = small.rows.get("certificates") ?? [];
      expect(rows, day).toHaveLength(AUTHORITIES.length + MIN_LEAVES + threatLeaves);
      const precerts = rows.filter((row) => row.precert === 1);
      expect(precerts.length, day).toBeGreaterThan(0);
      for (const row of precerts) {
        const doc = JSON.parse(String(row.doc)) as { parsed: { extensions?: { ct_poison?: boolean } } };
        expect(doc.parsed.extensions?.ct_poison, day).toBe(true);
        // Only publicly trusted CAs log precertificates.
        expect(["DV", "OV", "EV"], day).toContain(row.validation_level);
      }
    }
  });
});
