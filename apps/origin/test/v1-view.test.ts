import {
  certificateDocumentSchema,
  ipv4DocumentSchema,
  v1ErrorSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { certificateDocs, v1HostDocs, websiteDocs } from "./support/dataset-facts";
import { call, getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

async function usedQuota(): Promise<number> {
  const { body } = await getJson<{ quota: { used: number } }>("/api/v1/account");
  return body.quota.used;
}

const PAGE_NOT_FOUND = { error_code: 404, error: "page not found" };

describe("GET /api/v1/view/:index/:id", () => {
  it("returns the stored ipv4 document", async () => {
    const [host] = await v1HostDocs();
    const { res, body } = await getJson(`/api/v1/view/ipv4/${host!.ip}`);
    expect(res.status).toBe(200);
    expect(body).toEqual(host!.v1_doc);
    expect(ipv4DocumentSchema.safeParse(body).success).toBe(true);
  });

  it("returns a certificate whatever the case of its fingerprint", async () => {
    const [cert] = await certificateDocs();
    const lower = await getJson(`/api/v1/view/certificates/${cert!.sha256.toLowerCase()}`);
    const upper = await getJson(`/api/v1/view/certificates/${cert!.sha256.toUpperCase()}`);
    expect(lower.res.status).toBe(200);
    expect(lower.body).toEqual(cert!.doc);
    expect(upper.body).toEqual(cert!.doc);
  });

  it("returns a logged certificate with its SCTs, one per log of its ct map, at the logged times", async () => {
    const logged = (await certificateDocs())
      .map(({ sha256, doc }) => ({ sha256, doc: certificateDocumentSchema.parse(doc) }))
      .find(({ doc }) => !doc.precert && Object.keys(doc.ct ?? {}).length > 0);
    if (!logged) throw new Error("the fixture has no logged certificate");
    const { res, body } = await getJson(`/api/v1/view/certificates/${logged.sha256}`);
    expect(res.status).toBe(200);
    const scts = certificateDocumentSchema.parse(body).parsed.extensions?.signed_certificate_timestamps ?? [];
    const loggedAt = Object.values(logged.doc.ct ?? {}).map((e) => Date.parse(e.added_to_ct_at) / 1000);
    expect(scts.map((s) => s.timestamp).sort()).toEqual(loggedAt.sort());
    for (const sct of scts) {
      expect(sct.version).toBe(0);
      expect(atob(sct.log_id)).toHaveLength(32);
    }
  });

  it("returns a website by domain in any case", async () => {
    const [site] = await websiteDocs();
    const { res, body } = await getJson(`/api/v1/view/websites/${site!.domain.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(body).toEqual(site!.doc);
    expect(websiteDocumentSchema.safeParse(body).success).toBe(true);
  });

  it("charges one unit of quota for a document it returns", async () => {
    const before = await usedQuota();
    const [host] = await v1HostDocs();
    await call("GET", `/api/v1/view/ipv4/${host!.ip}`);
    expect(await usedQuota()).toBe(before + 1);
  });

  it.each([
    ["an unknown IP", "/api/v1/view/ipv4/10.255.255.254"],
    ["an unknown fingerprint", `/api/v1/view/certificates/${"f".repeat(64)}`],
    ["an unknown domain", "/api/v1/view/websites/nowhere.invalid-tld"],
    ["an unknown index", "/api/v1/view/hosts/1.1.1.1"],
    // The public service answers ids that cannot exist with its plain 404 as well.
    ["a malformed IP", "/api/v1/view/ipv4/999.1.1.1"],
    ["a fingerprint that is not hex", `/api/v1/view/certificates/${"z".repeat(64)}`],
    ["a fingerprint of the wrong length", "/api/v1/view/certificates/abcdef"],
  ])("answers %s with 404 page not found and charges nothing", async (_what, path) => {
    const before = await usedQuota();
    const res = await call("GET", path);
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(v1ErrorSchema.parse(await res.json())).toEqual(PAGE_NOT_FOUND);
    expect(await usedQuota()).toBe(before);
  });

  it("answers another method with 405 and the allowed ones", async () => {
    const res = await call("POST", "/api/v1/view/ipv4/1.1.1.1", { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toContain("GET");
    expect(await res.json()).toEqual({ error_code: 405, error: "method not allowed" });
  });
});
