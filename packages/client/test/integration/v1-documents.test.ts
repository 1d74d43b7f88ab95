import {
  BULK_MAX_FINGERPRINTS,
  bulkUnknownCertificateSchema,
  certificateDocumentSchema,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/index";
import { SEEDED_CERTIFICATES } from "../../../../apps/origin/test/support/small-dataset";
import { recordingFetch } from "./support/recording-fetch";
import { createTenant, edgeClient, seedOrigin } from "./support/stack";

let tenant: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  await seedOrigin();
  tenant = await createTenant();
});

/** Distinct well-formed fingerprints nobody has: unknown to the origin. */
function unknownFingerprints(count: number): string[] {
  return Array.from({ length: count }, (_, i) => i.toString(16).padStart(64, "f"));
}

describe("client.view (v1)", () => {
  it("returns a host, a website and a certificate, each checked against its core schema", async () => {
    const client = edgeClient(tenant);
    const hosts = await client.search("ipv4", "*", { fields: ["ip"] });
    const ip = String(hosts.results[0]?.ip);
    expect((await client.view("ipv4", ip)).ip).toBe(ip);
    const sites = await client.search("websites", "*", { fields: ["domain"] });
    const domain = String(sites.results[0]?.domain);
    expect((await client.view("websites", domain)).domain).toBe(domain);
    const [sha256] = SEEDED_CERTIFICATES;
    const certificate = await client.view("certificates", sha256 ?? "");
    expect(certificate.parsed.fingerprint_sha256).toBe(sha256);
  });

  it("throws NotFoundError for a document that does not exist", async () => {
    const error = await edgeClient(tenant)
      .view("ipv4", "203.0.113.250")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
    expect((error as NotFoundError).body).toMatchObject({ error_code: 404 });
  });
});

describe("client.bulk", () => {
  it("sends 120 fingerprints as chunks of 50, 50 and 20 and merges one key per fingerprint", async () => {
    const recorder = recordingFetch();
    const client = edgeClient(tenant, { fetch: recorder.fetch });
    const known = SEEDED_CERTIFICATES;
    const wanted = [...known, ...unknownFingerprints(117)];
    const result = await client.bulk(wanted, { concurrency: 2 });

    const chunks = recorder.requests.map((r) => (r.body as { fingerprints: string[] }).fingerprints);
    expect(chunks.map((c) => c.length)).toEqual([50, 50, 20]);
    expect(chunks.every((c) => c.length <= BULK_MAX_FINGERPRINTS)).toBe(true);
    expect(chunks.flat()).toEqual(wanted);
    expect(recorder.peak()).toBeLessThanOrEqual(2);

    expect(Object.keys(result).sort()).toEqual([...wanted].sort());
    for (const fingerprint of known)
      expect(certificateDocumentSchema.safeParse(result[fingerprint]).success).toBe(true);
    for (const fingerprint of wanted.slice(known.length)) {
      expect(bulkUnknownCertificateSchema.parse(result[fingerprint]).error_type).toBe("unknown");
    }
  });

  it("asks for a repeated fingerprint once", async () => {
    const recorder = recordingFetch();
    const [sha256 = ""] = SEEDED_CERTIFICATES;
    const result = await edgeClient(tenant, { fetch: recorder.fetch }).bulk([sha256, sha256, sha256]);
    expect(recorder.requests.map((r) => r.body)).toEqual([{ fingerprints: [sha256] }]);
    expect(Object.keys(result)).toEqual([sha256]);
  });

  it("sends nothing for no fingerprints", async () => {
    const recorder = recordingFetch();
    expect(await edgeClient(tenant, { fetch: recorder.fetch }).bulk([])).toEqual({});
    expect(recorder.requests).toEqual([]);
  });
});
