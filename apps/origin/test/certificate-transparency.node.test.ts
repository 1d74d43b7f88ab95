import { X509Certificate, createHash, verify } from "node:crypto";
import tls from "node:tls";
import { AsnConvert } from "@peculiar/asn1-schema";
import { Certificate, Extensions } from "@peculiar/asn1-x509";
import { certificateDocumentSchema, type CertificateDocument } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { CtLogs } from "../src/dataset/certs/ct-logs";
import { generateDataset, type DatasetOptions } from "../src/dataset/generate";

// The SCTs of generated certificates, checked as a CT auditor would: the signed structure is
// rebuilt here from RFC 6962 §3.2 (not with the generator's encoder), the TBS without the SCT
// list is re-encoded from the parsed certificate, and Node's crypto verifies the signature.

const OPTIONS: DatasetOptions = {
  seed: "ct-test",
  day: "2026-11-27",
  hosts: 5,
  certs: 260,
  rootPems: tls.rootCertificates,
};
const SCT_LIST_OID = "1.3.6.1.4.1.11129.2.4.2";

type Sct = NonNullable<
  NonNullable<CertificateDocument["parsed"]["extensions"]>["signed_certificate_timestamps"]
>[number];

let docs: CertificateDocument[];
let bySha256: Map<string, CertificateDocument>;
/** Log name → DER SPKI of its key, from the seed. */
const logKeys = new Map<string, Buffer>();

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();
const scts = (doc: CertificateDocument): Sct[] => doc.parsed.extensions?.signed_certificate_timestamps ?? [];
const isLeaf = (doc: CertificateDocument) => doc.parsed.extensions?.basic_constraints?.is_ca !== true;

function uint(value: number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(value, bytes - Math.min(bytes, 6), Math.min(bytes, 6));
  return out;
}

function tbsWithoutSctList(raw: string): Buffer {
  const cert = AsnConvert.parse(Buffer.from(raw, "base64"), Certificate);
  const tbs = cert.tbsCertificate;
  tbs.extensions = new Extensions((tbs.extensions ?? []).filter((e) => e.extnID !== SCT_LIST_OID));
  return Buffer.from(AsnConvert.serialize(tbs));
}

function issuerKeyHash(doc: CertificateDocument): Buffer {
  const issuer = bySha256.get(doc.parents?.[0] ?? "");
  if (!issuer) throw new Error("no issuer in the dataset");
  const spki = new X509Certificate(Buffer.from(issuer.raw, "base64")).publicKey.export({
    type: "spki",
    format: "der",
  });
  return sha256(spki);
}

/** RFC 6962 §3.2 `digitally-signed` content of an SCT over a precert_entry. */
function signedInput(timestampMs: number, keyHash: Buffer, tbs: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from([0, 0]), // sct_version v1, signature_type certificate_timestamp
    uint(timestampMs, 8),
    uint(1, 2), // entry_type precert_entry
    keyHash,
    uint(tbs.length, 3),
    tbs,
    uint(0, 2), // no extensions
  ]);
}

function verifySct(sct: Sct, logSpki: Buffer, input: Buffer): boolean {
  const signed = Buffer.from(sct.signature, "base64");
  expect(signed[0], "hash algorithm sha256").toBe(4);
  expect(signed[1], "signature algorithm ecdsa").toBe(3);
  expect(signed.readUInt16BE(2)).toBe(signed.length - 4);
  return verify(
    "sha256",
    input,
    { key: logSpki, format: "der", type: "spki", dsaEncoding: "der" },
    signed.subarray(4),
  );
}

beforeAll(async () => {
  docs = [];
  await generateDataset(OPTIONS, {
    add(table, row) {
      if (table === "certificates") docs.push(certificateDocumentSchema.parse(JSON.parse(String(row.doc))));
    },
    drain: () => Promise.resolve(),
  });
  bySha256 = new Map(docs.map((d) => [d.parsed.fingerprint_sha256, d]));
  const logs = new CtLogs(OPTIONS.seed);
  for (const doc of docs)
    for (const name of Object.keys(doc.ct ?? {}))
      if (!logKeys.has(name)) logKeys.set(name, Buffer.from((await logs.get(name)).spki));
});

describe("signed certificate timestamps of generated certificates", () => {
  it("every logged final certificate carries one SCT per log of its ct map", () => {
    const logged = docs.filter((d) => Object.keys(d.ct ?? {}).length > 0 && !d.precert);
    expect(logged.length).toBeGreaterThan(20);
    for (const doc of logged) {
      expect(scts(doc).length).toBe(Object.keys(doc.ct ?? {}).length);
    }
  });

  it("each SCT names a dataset log by the SHA-256 of its key, at the time the ct map records", () => {
    const logByLogId = new Map([...logKeys].map(([name, spki]) => [sha256(spki).toString("base64"), name]));
    let checked = 0;
    for (const doc of docs) {
      for (const sct of scts(doc)) {
        expect(sct.version).toBe(0);
        expect(sct).not.toHaveProperty("extensions");
        const log = logByLogId.get(sct.log_id);
        expect(log, `log id ${sct.log_id}`).toBeDefined();
        const entry = doc.ct?.[log ?? ""];
        expect(entry, `${log} in the ct map`).toBeDefined();
        expect(sct.timestamp).toBe(Date.parse(entry?.added_to_ct_at ?? "") / 1000);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("every SCT signature verifies with its log's key over the precert entry", () => {
    const logByLogId = new Map([...logKeys.values()].map((spki) => [sha256(spki).toString("base64"), spki]));
    let verified = 0;
    const issuerAlgorithms = new Set<string>();
    for (const doc of docs.filter((d) => scts(d).length > 0)) {
      issuerAlgorithms.add(doc.parsed.signature_algorithm.name.replace(/-?SHA\d+-?/, ""));
      const tbs = tbsWithoutSctList(doc.raw);
      const keyHash = issuerKeyHash(doc);
      for (const sct of scts(doc)) {
        const spki = logByLogId.get(sct.log_id);
        if (!spki) throw new Error("unknown log");
        expect(verifySct(sct, spki, signedInput(sct.timestamp * 1000, keyHash, tbs))).toBe(true);
        verified++;
      }
    }
    expect(verified).toBeGreaterThan(40);
    // Both kinds of issuing CA: the TBS the logs signed is the one each issuer signed.
    expect([...issuerAlgorithms].sort()).toEqual(["ECDSA", "RSA"]);
  });

  it("a signature does not verify over another TBS, timestamp or issuer", () => {
    const [first, second] = docs.filter((d) => scts(d).length > 0);
    if (!first || !second) throw new Error("need two certificates with SCTs");
    const sct = scts(first)[0];
    if (!sct) throw new Error("no SCT");
    const spki = [...logKeys.values()].find((k) => sha256(k).toString("base64") === sct.log_id);
    if (!spki) throw new Error("unknown log");
    const tbs = tbsWithoutSctList(first.raw);
    const keyHash = issuerKeyHash(first);
    expect(verifySct(sct, spki, signedInput(sct.timestamp * 1000, keyHash, tbs))).toBe(true);
    expect(
      verifySct(sct, spki, signedInput(sct.timestamp * 1000, keyHash, tbsWithoutSctList(second.raw))),
    ).toBe(false);
    expect(verifySct(sct, spki, signedInput(sct.timestamp * 1000 + 1000, keyHash, tbs))).toBe(false);
    expect(verifySct(sct, spki, signedInput(sct.timestamp * 1000, sha256(keyHash), tbs))).toBe(false);
  });

  it("the SCT list is left out of tbs_noct_fingerprint", () => {
    for (const doc of docs.filter((d) => scts(d).length > 0)) {
      expect(doc.parsed.tbs_noct_fingerprint).toBe(sha256(tbsWithoutSctList(doc.raw)).toString("hex"));
      expect(doc.parsed.tbs_noct_fingerprint).not.toBe(doc.parsed.tbs_fingerprint);
    }
  });

  it("precertificates are logged but carry no SCTs; unlogged certificates carry none", () => {
    const precerts = docs.filter((d) => d.precert);
    expect(precerts.length).toBeGreaterThan(0);
    for (const doc of precerts) {
      expect(Object.keys(doc.ct ?? {}).length).toBeGreaterThan(0);
      expect(doc.parsed.extensions).not.toHaveProperty("signed_certificate_timestamps");
    }
    const unlogged = docs.filter((d) => Object.keys(d.ct ?? {}).length === 0);
    expect(unlogged.some(isLeaf)).toBe(true);
    for (const doc of unlogged)
      expect(doc.parsed.extensions).not.toHaveProperty("signed_certificate_timestamps");
  });

  it("log keys derive from the dataset seed: same seed, same log id; another seed, another", async () => {
    const [name, spki] = [...logKeys][0] ?? [];
    if (!name || !spki) throw new Error("no log");
    expect(Buffer.from((await new CtLogs(OPTIONS.seed).get(name)).logId)).toEqual(sha256(spki));
    expect(Buffer.from((await new CtLogs("another-seed").get(name)).logId)).not.toEqual(sha256(spki));
  });
});
