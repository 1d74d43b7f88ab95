import { env } from "cloudflare:workers";
import { CREDIT_COSTS, V3_ENRICHMENTS_PER_DAY } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { datasetNow, websiteDocs } from "./support/dataset-facts";
import { platformOrg } from "./support/platform-org";
import { balanceOf } from "./v3-requests";

beforeAll(() => seedTestDataset());

type Result<T> = { result: T };
interface Service {
  port: number;
  transport_protocol: string;
  service_name: string;
  certificate?: string;
  http?: unknown;
}
interface Version {
  validFrom: number;
  services: Service[];
}

/** Every host's versions and when it was last seen, from the stored rows. */
async function histories(): Promise<Map<string, { versions: Version[]; lastSeen: number }>> {
  const { results } = await env.DB.prepare(
    "select ip, valid_from, doc from host_history order by ip, valid_from",
  ).all<{
    ip: string;
    valid_from: number;
    doc: string;
  }>();
  const hosts = await env.DB.prepare("select ip, last_updated_at from hosts").all<{
    ip: string;
    last_updated_at: number;
  }>();
  const last = new Map(hosts.results.map((h) => [h.ip, h.last_updated_at]));
  const out = new Map<string, { versions: Version[]; lastSeen: number }>();
  for (const row of results) {
    const entry = out.get(row.ip) ?? { versions: [], lastSeen: last.get(row.ip) ?? 0 };
    entry.versions.push({
      validFrom: row.valid_from,
      services: (JSON.parse(row.doc) as { services: Service[] }).services,
    });
    out.set(row.ip, entry);
  }
  return out;
}

/** Runs of consecutive versions holding a key, with their start and end. */
function runs(
  history: { versions: Version[]; lastSeen: number },
  keys: (services: Service[]) => string[],
): { key: string; start: number; end: number }[] {
  const out: { key: string; start: number; end: number }[] = [];
  const open = new Map<string, { key: string; start: number; end: number }>();
  history.versions.forEach((version, i) => {
    const end = history.versions[i + 1]?.validFrom ?? Math.max(history.lastSeen, version.validFrom);
    const held = new Set(keys(version.services));
    for (const [key, run] of open) {
      if (held.has(key)) continue;
      out.push(run);
      open.delete(key);
    }
    for (const key of held)
      open.set(key, open.has(key) ? { ...open.get(key)!, end } : { key, start: version.validFrom, end });
  });
  return [...out, ...open.values()];
}

describe("a host's service history", () => {
  it("answers when each service was present, from the history, filtered and ordered as asked", async () => {
    // Asked at the dataset's "now", so the default window holds the whole history.
    const org = platformOrg("org-service-history", { start: await datasetNow() });
    const all = await histories();
    const [ip, history] = [...all].find(([, h]) => h.versions.length > 2)!;
    const want = runs(history, (services) =>
      services.map((s) => `${s.port}/${s.transport_protocol.toLowerCase()}/${s.service_name}`),
    );
    const { status, body } = await org.json<
      Result<{
        ranges: {
          port: string;
          protocol: string;
          transport_protocol: string;
          start_time: string;
          end_time: string;
        }[];
        next_page_token: string;
      }>
    >("GET", `/v3/global/asset/host/${ip}/observations/services?order_by=port%20DESC`);
    expect(status).toBe(200);
    const got = body.result.ranges.map((r) => ({
      key: `${r.port}/${r.transport_protocol}/${r.protocol}`,
      start: Date.parse(r.start_time),
      end: Date.parse(r.end_time),
    }));
    expect([...got].sort((a, b) => a.key.localeCompare(b.key) || a.start - b.start)).toEqual(
      [...want].sort((a, b) => a.key.localeCompare(b.key) || a.start - b.start),
    );
    const ports = body.result.ranges.map((r) => Number(r.port));
    expect(ports).toEqual([...ports].sort((a, b) => b - a));
    const port = ports[0]!;
    const filtered = await org.json<Result<{ ranges: { port: string }[] }>>(
      "GET",
      `/v3/global/asset/host/${ip}/observations/services?port=${port}`,
    );
    expect(filtered.body.result.ranges.every((r) => r.port === String(port))).toBe(true);
    expect(await balanceOf(org.id)).toBe(100_000 - 2 * CREDIT_COSTS.v3_host_services.credits);
  });

  it("refuses a bad address, window, order or page, and answers 404 for a host the dataset lacks", async () => {
    const org = platformOrg("org-service-history-refusals");
    const [ip] = [...(await histories()).keys()];
    const base = `/v3/global/asset/host/${ip}/observations/services`;
    for (const query of [
      "?order_by=size%20ASC",
      "?port=70000",
      "?transport_protocol=sctp",
      "?end_time=2999-01-01T00:00:00Z",
      "?page_size=0",
    ])
      expect((await org.call("GET", `${base}${query}`)).status, query).toBe(400);
    expect((await org.call("GET", "/v3/global/asset/host/nope/observations/services")).status).toBe(400);
    expect((await org.call("GET", "/v3/global/asset/host/192.0.2.1/observations/services")).status).toBe(404);
    expect(await balanceOf(org.id)).toBe(null);
  });
});

describe("a certificate's host observations", () => {
  it("answers every host that presented it, per port, over the history, at 5 credits a page", async () => {
    // Asked at the dataset's "now", so the default window holds the whole history.
    const org = platformOrg("org-cert-observations", { start: await datasetNow() });
    const all = await histories();
    const counts = new Map<string, number>();
    for (const h of all.values())
      for (const v of h.versions)
        for (const s of v.services)
          if (s.certificate) counts.set(s.certificate, (counts.get(s.certificate) ?? 0) + 1);
    const [fingerprint] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const want = [...all].flatMap(([ip, h]) =>
      runs(h, (services) =>
        services.filter((s) => s.certificate === fingerprint).map((s) => `${ip} ${s.port}`),
      ),
    );
    const { status, body } = await org.json<
      Result<{
        ranges: { ip: string; port: number; protocols: string[]; start_time: string; end_time: string }[];
        total_results: number;
      }>
    >("GET", `/v3/threat-hunting/certificate/${fingerprint}/observations/hosts`);
    expect(status).toBe(200);
    expect(body.result.total_results).toBe(want.length);
    const got = body.result.ranges.map((r) => ({
      key: `${r.ip} ${r.port}`,
      start: Date.parse(r.start_time),
      end: Date.parse(r.end_time),
    }));
    const order = (a: { key: string; start: number }, b: { key: string; start: number }) =>
      a.key.localeCompare(b.key) || a.start - b.start;
    expect(got.sort(order)).toEqual(want.sort(order));
    expect(await balanceOf(org.id)).toBe(100_000 - CREDIT_COSTS.v3_certificate_host_observations.credits);
    expect(
      (await org.call("GET", `/v3/threat-hunting/certificate/${"0".repeat(64)}/observations/hosts`)).status,
    ).toBe(404);
    expect((await org.call("GET", "/v3/threat-hunting/certificate/nothex/observations/hosts")).status).toBe(
      400,
    );
  });
});

describe("a web property's timeline", () => {
  it("lists the scans of the endpoint serving it, from the history of its host, newest first", async () => {
    const org = platformOrg("org-web-timeline");
    const sites = (await websiteDocs()) as { domain: string; doc: { ip: string; ports: number[] } }[];
    const all = await histories();
    const site = sites.find((s) => (all.get(s.doc.ip)?.versions.length ?? 0) > 1) ?? sites[0]!;
    const port = site.doc.ports[0]!;
    const { status, body } = await org.json<
      Result<{
        events: {
          resource: {
            event_time: string;
            endpoint_scanned: { scan: { hostname: string; port: number; ip: string } };
          };
        }[];
      }>
    >(
      "GET",
      `/v3/global/asset/webproperty/${site.domain}:${port}/timeline?start_time=2030-01-01T00:00:00Z&end_time=2020-01-01T00:00:00Z`,
    );
    expect(status).toBe(200);
    expect(body.result.events.length).toBeGreaterThan(0);
    for (const event of body.result.events)
      expect(event.resource.endpoint_scanned.scan).toMatchObject({
        hostname: site.domain,
        port,
        ip: site.doc.ip,
      });
    const times = body.result.events.map((e) => Date.parse(e.resource.event_time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const timeline = `/v3/global/asset/webproperty/${site.domain}:${port}/timeline`;
    expect(
      (await org.call("GET", `${timeline}?start_time=2020-01-01T00:00:00Z&end_time=2030-01-01T00:00:00Z`))
        .status,
    ).toBe(400);
    expect(
      (
        await org.call(
          "GET",
          `/v3/global/asset/webproperty/never.example:443/timeline?start_time=2030-01-01T00:00:00Z&end_time=2020-01-01T00:00:00Z`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("host enrichment", () => {
  it("answers the host's place and services without charging credits, up to the day's allowance (429 past it)", async () => {
    const org = platformOrg("org-enrichment");
    const [ip] = [...(await histories()).keys()];
    const res = await org.call("GET", `/v3/global/asset/enrichment/host/${ip}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.censys.api.v3.host-enrichment.v1+json");
    const { result }: Result<{ resource: { ip: string; services: Record<string, unknown>[] } }> =
      await res.json();
    expect(result.resource.ip).toBe(ip);
    for (const service of result.resource.services)
      expect(
        Object.keys(service).every((k) => ["port", "protocol", "scan_time", "labels", "threats"].includes(k)),
      ).toBe(true);
    expect(await balanceOf(org.id)).toBe(100_000);
    const day = new Date(org.now()).toISOString().slice(0, 10);
    await env.DB.prepare("update v3_enrichment_usage set calls = ? where organization_id = ? and day = ?")
      .bind(V3_ENRICHMENTS_PER_DAY, org.id, day)
      .run();
    const refused = await org.call("GET", `/v3/global/asset/enrichment/host/${ip}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    org.advance(86_400_000);
    expect((await org.call("GET", `/v3/global/asset/enrichment/host/${ip}`)).status).toBe(200);
    expect((await org.call("GET", "/v3/global/asset/enrichment/host/192.0.2.1")).status).toBe(404);
  });
});
