import { env } from "cloudflare:workers";
import { hostNamesResultSchema, v2Envelope, v2ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { hostFacts, type HostFacts } from "./support/dataset-facts";
import { getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

interface ServiceDoc {
  certificate?: string;
  http?: { request?: { uri?: string } };
}

async function certificateNames(fingerprint: string): Promise<string[]> {
  const { results } = await env.DB.prepare("select name from certificate_names where sha256 = ?")
    .bind(fingerprint)
    .all<{ name: string }>();
  return results.map((row) => row.name.toLowerCase());
}

/** Hosts with a certificate, the one with the most certificate names first. */
async function hostsWithCertificates(): Promise<{ host: HostFacts; fromCertificates: string[] }[]> {
  const out: { host: HostFacts; fromCertificates: string[] }[] = [];
  for (const host of await hostFacts()) {
    const fps = (host.doc.services as ServiceDoc[]).flatMap((s) => (s.certificate ? [s.certificate] : []));
    if (fps.length === 0) continue;
    const names = (await Promise.all(fps.map(certificateNames))).flat().filter((n) => !n.startsWith("*."));
    out.push({ host, fromCertificates: names });
  }
  return out.sort((a, b) => b.fromCertificates.length - a.fromCertificates.length);
}

const names = (ip: string, query = "") =>
  getJson(`/api/v2/hosts/${ip}/names${query}`).then(({ res, body }) => ({
    res,
    body,
    result: res.status === 200 ? v2Envelope(hostNamesResultSchema).parse(body).result : null,
  }));

describe("GET /api/v2/hosts/:ip/names", () => {
  it("lists the names on the host's certificates and its HTTP host names, sorted, each once", async () => {
    const { host, fromCertificates } = (await hostsWithCertificates())[0]!;
    expect(fromCertificates.length).toBeGreaterThan(0);
    const { res, result } = await names(host.ip, "?per_page=1000");
    expect(res.status).toBe(200);
    for (const name of fromCertificates) expect(result!.names).toContain(name);
    for (const service of host.doc.services as ServiceDoc[]) {
      const uriHost = service.http?.request?.uri ? new URL(service.http.request.uri).hostname : null;
      if (uriHost && !/^[\d.]+$/.test(uriHost)) expect(result!.names).toContain(uriHost);
    }
    expect(result!.names).toEqual([...new Set(result!.names)].sort());
    expect(result!.names.every((n) => !n.includes("*") && !/^[\d.]+$/.test(n))).toBe(true);
    expect(result!.links).toEqual({ prev: "", next: "" });
  });

  it("answers an empty list for a host with no named service", async () => {
    const bare = (await hostFacts()).find((h) =>
      (h.doc.services as (ServiceDoc & { tls?: unknown })[]).every(
        (s) => !s.certificate && !s.http && !s.tls,
      ),
    );
    expect(bare).toBeDefined();
    const { result } = await names(bare!.ip);
    expect(result).toEqual({ names: [], links: { prev: "", next: "" } });
  });

  it("pages with per_page and walks forward and back with its cursors", async () => {
    const { host } = (await hostsWithCertificates())[0]!;
    const all = (await names(host.ip, "?per_page=1000")).result!.names;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let query = "?per_page=2";
    let first: { names: string[] } | null = null;
    let lastPrev = "";
    for (;;) {
      const { result } = await names(host.ip, query);
      first ??= result!;
      seen.push(...result!.names);
      lastPrev = result!.links.prev;
      if (!result!.links.next) break;
      query = `?per_page=2&cursor=${encodeURIComponent(result!.links.next)}`;
    }
    expect(seen).toEqual(all);
    expect(first.names).toEqual(all.slice(0, 2));
    const back = await names(host.ip, `?per_page=2&cursor=${encodeURIComponent(lastPrev)}`);
    const lastStart = Math.floor((all.length - 1) / 2) * 2;
    expect(back.result!.names).toEqual(all.slice(lastStart - 2, lastStart));
  });

  it("refuses a cursor replayed with another per_page or host", async () => {
    const [one, two] = await hostsWithCertificates();
    const host = one!.host;
    const other = two!.host;
    const { result } = await names(host.ip, "?per_page=1");
    const cursor = encodeURIComponent(result!.links.next);
    expect(cursor).not.toBe("");
    for (const [ip, query] of [
      [host.ip, `?per_page=2&cursor=${cursor}`],
      [other.ip, `?per_page=1&cursor=${cursor}`],
    ] as const) {
      const { res, body } = await names(ip, query);
      expect(res.status).toBe(400);
      expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 400, status: "Bad Request" });
      expect(String((body as { error: string }).error)).toMatch(/different host or per_page/);
    }
  });

  it.each([
    ["a malformed cursor", "?cursor=not-a-cursor", /not a cursor this service issued/],
    ["a forged cursor", "?cursor=eyJkIjoibiJ9.AAAA", /signature is invalid/],
    ["per_page 0", "?per_page=0", /per_page/],
    ["per_page above 1000", "?per_page=1001", /per_page/],
    ["a per_page that is not a number", "?per_page=many", /per_page/],
  ])("answers %s with 400", async (_, query, message) => {
    const [host] = await hostFacts();
    const { res, body } = await names(host!.ip, query);
    expect(res.status).toBe(400);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 400, status: "Bad Request" });
    expect(String((body as { error: string }).error)).toMatch(message);
  });

  it("answers 422 for an invalid IP, as the host view does", async () => {
    const { res, body } = await names("999.1.1.1");
    expect(res.status).toBe(422);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 422, status: "Unprocessable Entity" });
    expect(String((body as { error: string }).error)).toMatch(/Invalid IP address/);
  });

  it("answers 404 for a host it does not know", async () => {
    const { res, body } = await names("10.255.255.254");
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
  });
});
