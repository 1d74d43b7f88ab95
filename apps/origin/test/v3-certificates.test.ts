import { v3CertificateAssetSchema, v3Envelope, v3RawCertificateSchema, V3_MEDIA_TYPES } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs } from "./support/dataset-facts";
import { expectProblem, v3Call, v3Get, v3Post } from "./v3-requests";

beforeAll(() => seedTestDataset());

const UNKNOWN = "0".repeat(64);

/** The PEM the test computes itself from the v1 document's base64 DER. */
function pemOf(raw: string): string {
  const body = raw.match(/.{1,64}/g)!.join("\n");
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

describe("GET /v3/global/asset/certificate/{certificate_id}", () => {
  it("projects the v1 document into the Platform's Certificate", async () => {
    const [cert] = await certificateDocs();
    const parsed = cert!.doc.parsed as Record<string, unknown> & {
      validity: { start: string; end: string; length: number };
    };
    const { res, body } = await v3Get(`/v3/global/asset/certificate/${cert!.sha256.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.certificate);
    const { resource } = v3Envelope(v3CertificateAssetSchema).parse(body).result;
    expect(resource).toMatchObject({
      fingerprint_sha256: cert!.sha256,
      fingerprint_sha1: parsed.fingerprint_sha1,
      tbs_fingerprint_sha256: parsed.tbs_fingerprint,
      names: parsed.names,
      parsed: {
        subject_dn: parsed.subject_dn,
        issuer_dn: parsed.issuer_dn,
        serial_number: parsed.serial_number,
        validity_period: {
          not_before: parsed.validity.start,
          not_after: parsed.validity.end,
          length_seconds: parsed.validity.length,
        },
      },
    });
    expect(BigInt(`0x${resource.parsed!.serial_number_hex}`).toString()).toBe(parsed.serial_number);
    const nss = (cert!.doc.validation as { nss: { valid: boolean } }).nss;
    expect(resource.validation?.nss?.is_valid).toBe(nss.valid);
  });

  it("answers 404 for an unknown fingerprint and 400 for one that is not hex", async () => {
    const unknown = await expectProblem((await v3Get(`/v3/global/asset/certificate/${UNKNOWN}`)).res, 404);
    expect(unknown.detail).toContain(UNKNOWN);
    const bad = await expectProblem((await v3Get("/v3/global/asset/certificate/xyz")).res, 400);
    expect(bad.errors?.[0]).toMatchObject({ location: "path.certificate_id", value: "xyz" });
  });
});

describe("GET /v3/global/asset/certificate/{certificate_id}/raw", () => {
  it("answers the certificate as a PEM file", async () => {
    const [cert] = await certificateDocs();
    const res = await v3Call("GET", `/v3/global/asset/certificate/${cert!.sha256}/raw`, {
      headers: { Accept: V3_MEDIA_TYPES.pem },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.pem);
    expect(await res.text()).toBe(pemOf(cert!.doc.raw as string));
  });

  it("answers 404 problem+json for an unknown fingerprint", async () => {
    await expectProblem(await v3Call("GET", `/v3/global/asset/certificate/${UNKNOWN}/raw`), 404);
  });
});

describe("POST /v3/global/asset/certificate", () => {
  it("answers the certificates found in the order asked, each once, unknown ones left out", async () => {
    const certs = await certificateDocs();
    const ids = [certs[3]!.sha256, UNKNOWN, certs[1]!.sha256.toUpperCase(), certs[3]!.sha256];
    const { res, body } = await v3Post("/v3/global/asset/certificate", { certificate_ids: ids });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.certificate);
    const { result } = v3Envelope(z.array(v3CertificateAssetSchema)).parse(body);
    expect(result.map((a) => a.resource.fingerprint_sha256)).toEqual([certs[3]!.sha256, certs[1]!.sha256]);
  });

  it("refuses fingerprints that are not hex, naming each", async () => {
    const { res } = await v3Post("/v3/global/asset/certificate", { certificate_ids: ["abc", UNKNOWN] });
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      {
        location: "body.certificate_ids[0]",
        message: "not a SHA-256 fingerprint (64 hex digits)",
        value: "abc",
      },
    ]);
  });
});

describe("POST /v3/global/asset/certificate/raw", () => {
  it("answers {certificate_id, pem} for each certificate found", async () => {
    const certs = await certificateDocs();
    const { res, body } = await v3Post("/v3/global/asset/certificate/raw", {
      certificate_ids: [certs[0]!.sha256, UNKNOWN, certs[2]!.sha256],
    });
    expect(res.status).toBe(200);
    const { result } = v3Envelope(z.array(v3RawCertificateSchema)).parse(body);
    expect(result).toEqual([
      { certificate_id: certs[0]!.sha256, pem: pemOf(certs[0]!.doc.raw as string) },
      { certificate_id: certs[2]!.sha256, pem: pemOf(certs[2]!.doc.raw as string) },
    ]);
  });

  it("refuses a body without certificate_ids", async () => {
    const problem = await expectProblem(
      (await v3Post("/v3/global/asset/certificate/raw", { ids: [] })).res,
      400,
    );
    expect(problem.errors?.[0]?.location).toBe("body.certificate_ids");
  });
});
