import { env } from "cloudflare:workers";
import { certificateHostsResultSchema, parseRfc3339Nanos, v2Envelope, v2ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { hostFacts } from "./support/dataset-facts";
import { getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

interface ServiceDoc {
  certificate?: string;
  observed_at: string;
}

/** Certificate → the hosts (in address order) whose current services present it. */
async function presenters(): Promise<Map<string, { ip: string; services: ServiceDoc[] }[]>> {
  const byCert = new Map<string, { ip: string; services: ServiceDoc[] }[]>();
  for (const host of await hostFacts()) {
    const services = host.doc.services as unknown as ServiceDoc[];
    for (const fp of new Set(services.flatMap((s) => (s.certificate ? [s.certificate] : [])))) {
      byCert.set(fp, [...(byCert.get(fp) ?? []), { ip: host.ip, services }]);
    }
  }
  return byCert;
}

/** The certificate presented by the most hosts. */
async function sharedCertificate(): Promise<{ fp: string; hosts: { ip: string; services: ServiceDoc[] }[] }> {
  const [fp, hosts] = [...(await presenters()).entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
  return { fp, hosts };
}

const hostsOf = (fp: string, query = "") =>
  getJson(`/api/v2/certificates/${fp}/hosts${query}`).then(({ res, body }) => ({
    res,
    body,
    result: res.status === 200 ? v2Envelope(certificateHostsResultSchema).parse(body).result : null,
  }));

const nanos = (time: string) => BigInt(parseRfc3339Nanos(time)!.nanos);

describe("GET /api/v2/certificates/:sha256/hosts", () => {
  it("lists every host presenting the certificate now, in address order, with observation times", async () => {
    const { fp, hosts } = await sharedCertificate();
    expect(hosts.length).toBeGreaterThan(1);
    const { res, result } = await hostsOf(fp.toUpperCase());
    expect(res.status).toBe(200);
    expect(result!.fingerprint).toBe(fp);
    expect(result!.hosts.map((h) => h.ip)).toEqual(hosts.map((h) => h.ip));
    expect(result!.links).toEqual({ prev: "", next: "" });
    for (const [i, host] of result!.hosts.entries()) {
      const latest = hosts[i]!.services.filter((s) => s.certificate === fp)
        .map((s) => s.observed_at)
        .sort((x, y) => (nanos(x) < nanos(y) ? -1 : 1))
        .pop();
      expect(host.observed_at).toBe(latest);
      expect(nanos(host.first_observed_at) <= nanos(host.observed_at)).toBe(true);
    }
  });

  it("takes first_observed_at from the earliest history version presenting it", async () => {
    const { fp, hosts } = await sharedCertificate();
    const { result } = await hostsOf(fp);
    const { results } = await env.DB.prepare("select doc from host_history where ip = ?")
      .bind(hosts[0]!.ip)
      .all<{ doc: string }>();
    const seen = results
      .flatMap((row) => (JSON.parse(row.doc) as { services: ServiceDoc[] }).services)
      .filter((s) => s.certificate === fp)
      .map((s) => s.observed_at);
    const earliest = [...seen, result!.hosts[0]!.observed_at].sort((x, y) =>
      nanos(x) < nanos(y) ? -1 : 1,
    )[0];
    expect(result!.hosts[0]!.first_observed_at).toBe(earliest);
  });

  it("pages with per_page and walks both ways with its cursors", async () => {
    const { fp, hosts } = await sharedCertificate();
    const first = await hostsOf(fp, "?per_page=1");
    expect(first.result!.hosts.map((h) => h.ip)).toEqual([hosts[0]!.ip]);
    expect(first.result!.links.prev).toBe("");
    const second = await hostsOf(fp, `?per_page=1&cursor=${encodeURIComponent(first.result!.links.next)}`);
    expect(second.result!.hosts.map((h) => h.ip)).toEqual([hosts[1]!.ip]);
    const back = await hostsOf(fp, `?per_page=1&cursor=${encodeURIComponent(second.result!.links.prev)}`);
    expect(back.result!.hosts).toEqual(first.result!.hosts);
  });

  it("answers an empty list for a known certificate no host presents", async () => {
    const presented = await presenters();
    const row = await env.DB.prepare("select sha256 from certificates order by sha256").all<{
      sha256: string;
    }>();
    const idle = row.results.find((r) => !presented.has(r.sha256));
    expect(idle).toBeDefined();
    const { res, result } = await hostsOf(idle!.sha256);
    expect(res.status).toBe(200);
    expect(result!.hosts).toEqual([]);
    expect(result!.links).toEqual({ prev: "", next: "" });
  });

  it("answers 404 for a certificate it does not know", async () => {
    const { res, body } = await hostsOf("e".repeat(64));
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
  });

  it.each(["abc", "g".repeat(64), "a".repeat(63)])(
    "answers the malformed fingerprint %s with 422",
    async (fp) => {
      const { res, body } = await hostsOf(fp);
      expect(res.status).toBe(422);
      expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 422, status: "Unprocessable Entity" });
      expect(String((body as { error: string }).error)).toMatch(/Invalid SHA-256 fingerprint/);
    },
  );

  it.each([
    ["per_page 0", "?per_page=0", /per_page/],
    ["per_page 101", "?per_page=101", /per_page/],
    ["a malformed cursor", "?cursor=x", /not a cursor this service issued/],
  ])("answers %s with 400", async (_, query, message) => {
    const { fp } = await sharedCertificate();
    const { res, body } = await hostsOf(fp, query);
    expect(res.status).toBe(400);
    expect(String((body as { error: string }).error)).toMatch(message);
  });

  it("refuses a cursor replayed for another certificate", async () => {
    const [fpA, fpB] = [...(await presenters()).entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([fp]) => fp);
    const { result } = await hostsOf(fpA!, "?per_page=1");
    const { res, body } = await hostsOf(fpB!, `?per_page=1&cursor=${encodeURIComponent(result!.links.next)}`);
    expect(res.status).toBe(400);
    expect(String((body as { error: string }).error)).toMatch(/different certificate or per_page/);
  });
});
