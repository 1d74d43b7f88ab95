import { env } from "cloudflare:workers";
import { isDomainName } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { call } from "./support/requests";
import { expectProblem, v3Get } from "./v3-requests";

beforeAll(() => seedTestDataset());

/**
 * DNS resolutions against names computed here from the stored rows: a version's names are its
 * certificates' names (the certificate index), the TLS leaf's names and the hosts its HTTP
 * requests and redirects name, as the legacy `/api/v2/hosts/{ip}/names` defines them.
 */

interface Version {
  ip: string;
  validFrom: number;
  doc: { services?: Record<string, unknown>[] };
}

interface Range {
  name: string;
  ip: string;
  start: number;
  end: number;
}

type Json = Record<string, unknown>;

async function certificateNames(): Promise<Map<string, string[]>> {
  const { results } = await env.DB.prepare("select lower(sha256) as sha, name from certificate_names").all<{
    sha: string;
    name: string;
  }>();
  const names = new Map<string, string[]>();
  for (const row of results) names.set(row.sha, [...(names.get(row.sha) ?? []), row.name]);
  return names;
}

function namesOf(doc: Version["doc"], certs: Map<string, string[]>): Set<string> {
  const out = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === "string" && isDomainName(value.toLowerCase())) out.add(value.toLowerCase());
  };
  const hostOf = (url: unknown) => {
    try {
      return typeof url === "string" ? new URL(url).hostname : null;
    } catch {
      return null;
    }
  };
  for (const service of doc.services ?? []) {
    const cert = service.certificate;
    if (typeof cert === "string") certs.get(cert.toLowerCase())?.forEach(add);
    const leaf = ((service.tls as Json | undefined)?.certificates as Json | undefined)?.leaf_data as
      | Json
      | undefined;
    if (Array.isArray(leaf?.names)) leaf.names.forEach(add);
    const http = service.http as { request?: Json; response?: { headers?: Json } } | undefined;
    add(hostOf(http?.request?.uri));
    const location = http?.response?.headers?.Location;
    if (Array.isArray(location)) location.map(hostOf).forEach(add);
  }
  return out;
}

/** Every resolution range of the dataset, computed version by version. */
async function expectedRanges(): Promise<{ ranges: Range[]; lastSeen: Map<string, number> }> {
  const certs = await certificateNames();
  const { results } = await env.DB.prepare(
    "select ip, valid_from, doc from host_history order by ip, valid_from",
  ).all<{ ip: string; valid_from: number; doc: string }>();
  const hosts = await env.DB.prepare("select ip, last_updated_at from hosts").all<{
    ip: string;
    last_updated_at: number;
  }>();
  const lastSeen = new Map(hosts.results.map((h) => [h.ip, h.last_updated_at]));
  const byIp = new Map<string, Version[]>();
  for (const row of results) {
    const list = byIp.get(row.ip) ?? [];
    list.push({ ip: row.ip, validFrom: row.valid_from, doc: JSON.parse(row.doc) as Version["doc"] });
    byIp.set(row.ip, list);
  }
  const ranges: Range[] = [];
  for (const [ip, versions] of byIp) {
    const open = new Map<string, Range>();
    versions.forEach((version, i) => {
      const end = versions[i + 1]?.validFrom ?? Math.max(lastSeen.get(ip) ?? 0, version.validFrom);
      const names = namesOf(version.doc, certs);
      for (const [name, range] of open)
        if (!names.has(name)) {
          ranges.push(range);
          open.delete(name);
        }
      for (const name of names) {
        const range = open.get(name);
        open.set(name, range ? { ...range, end } : { name, ip, start: version.validFrom, end });
      }
    });
    ranges.push(...open.values());
  }
  return { ranges, lastSeen };
}

const ms = (text: string) => Date.parse(text);

interface IpRecord {
  domain: string;
  record_type: string;
  first_seen: string;
  last_seen: string;
}
interface IpAnswer {
  result: { ip: string; records: IpRecord[]; total_records: number; next_page_token: string };
}
interface NameAnswer {
  result: {
    name: string;
    records: { ip: string; record_type: string; [time: string]: string }[];
    total_records: number;
    next_page_token: string;
  };
}

describe("DNS resolutions by IP", () => {
  it("ranges are the names the host answered for, each run of versions once, clipped to no window", async () => {
    const { ranges } = await expectedRanges();
    const ips = [...new Set(ranges.map((r) => r.ip))].slice(0, 12);
    expect(ips.length).toBeGreaterThan(3);
    for (const ip of ips) {
      const { res, body } = await v3Get<IpAnswer>(`/v3/global/dns/resolutions/ip/${ip}/ranges`);
      expect(res.status).toBe(200);
      const got = body.result.records.map((r) => ({
        name: r.domain,
        start: ms(r.first_seen),
        end: ms(r.last_seen),
        type: r.record_type,
      }));
      const want = ranges
        .filter((r) => r.ip === ip)
        .map((r) => ({ name: r.name, start: r.start, end: r.end, type: "A" }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.start - b.start));
      expect(got).toEqual(want);
      expect(body.result.total_records).toBe(want.length);
    }
  });

  it("the names resolving now are the legacy v2 host names (the edge translates one to the other)", async () => {
    const { ranges, lastSeen } = await expectedRanges();
    const ips = [...new Set(ranges.map((r) => r.ip))].slice(0, 8);
    for (const ip of ips) {
      const { body } = await v3Get<IpAnswer>(`/v3/global/dns/resolutions/ip/${ip}/ranges`);
      const now = body.result.records
        .filter((r) => ms(r.last_seen) === lastSeen.get(ip))
        .map((r) => r.domain);
      const legacy = await call("GET", `/api/v2/hosts/${ip}/names?per_page=1000`);
      const legacyBody: { result: { names: string[] } } = await legacy.json();
      const names = legacyBody.result.names;
      expect(now.sort()).toEqual([...names].sort());
    }
  });

  it("bounds merge the ranges of one name: the earliest start and the latest end", async () => {
    const { ranges } = await expectedRanges();
    const counts = new Map<string, number>();
    for (const r of ranges) counts.set(`${r.ip} ${r.name}`, (counts.get(`${r.ip} ${r.name}`) ?? 0) + 1);
    const split = [...counts].find(([, n]) => n > 1)?.[0];
    const ip = split?.split(" ")[0] ?? ranges[0]!.ip;
    const { body } = await v3Get<IpAnswer>(`/v3/global/dns/resolutions/ip/${ip}/bounds`);
    const own = ranges.filter((r) => r.ip === ip);
    const names = [...new Set(own.map((r) => r.name))].sort();
    expect(body.result.records.map((r) => r.domain)).toEqual(names);
    for (const record of body.result.records) {
      const mine = own.filter((r) => r.name === record.domain);
      expect(ms(record.first_seen)).toBe(Math.min(...mine.map((r) => r.start)));
      expect(ms(record.last_seen)).toBe(Math.max(...mine.map((r) => r.end)));
    }
  });

  it("a window keeps the ranges it overlaps, clipped to it; domain and record_types filter", async () => {
    const { ranges } = await expectedRanges();
    const sample = ranges.find((r) => r.end - r.start > 4 * 86_400_000)!;
    const from = sample.start + 86_400_000;
    const to = sample.end - 86_400_000;
    const path = `/v3/global/dns/resolutions/ip/${sample.ip}/ranges`;
    const query = `start_time=${new Date(from).toISOString()}&end_time=${new Date(to).toISOString()}&domain=${sample.name}`;
    const { body } = await v3Get<IpAnswer>(`${path}?${query}`);
    expect(body.result.records).toEqual([
      {
        domain: sample.name,
        record_type: "A",
        first_seen: new Date(from).toISOString(),
        last_seen: new Date(to).toISOString(),
      },
    ]);
    const aaaa = await v3Get<IpAnswer>(`${path}?record_types=AAAA`);
    expect(aaaa.body.result).toMatchObject({ records: [], total_records: 0, next_page_token: "" });
  });

  it("pages with signed tokens bound to the list", async () => {
    const { ranges } = await expectedRanges();
    const counts = new Map<string, number>();
    for (const r of ranges) counts.set(r.ip, (counts.get(r.ip) ?? 0) + 1);
    const [ip, total] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(total).toBeGreaterThan(1);
    const path = `/v3/global/dns/resolutions/ip/${ip}/ranges`;
    const seen: string[] = [];
    let token = "";
    for (let page = 0; page < total; page++) {
      const { body } = await v3Get<IpAnswer>(`${path}?page_size=1${token ? `&page_token=${token}` : ""}`);
      expect(body.result.records).toHaveLength(1);
      seen.push(`${body.result.records[0]!.domain} ${body.result.records[0]!.first_seen}`);
      token = body.result.next_page_token;
    }
    expect(token).toBe("");
    expect(new Set(seen).size).toBe(total);
    const first = await v3Get<IpAnswer>(`${path}?page_size=1`);
    const elsewhere = await v3Get(`${path}?page_size=2&page_token=${first.body.result.next_page_token}`);
    const problem = await expectProblem(elsewhere.res, 400);
    expect(problem.errors?.[0]).toMatchObject({ location: "query.page_token" });
  });

  it("refuses what is not an address, a bad window or page, and a host the dataset lacks", async () => {
    const base = "/v3/global/dns/resolutions/ip";
    const [{ ip } = { ip: "" }] = (await expectedRanges()).ranges;
    const cases: [string, number, string][] = [
      [`${base}/not-an-ip/ranges`, 400, "path.ip"],
      [`${base}/${ip}/ranges?end_time=2999-01-01T00:00:00Z`, 400, "query.end_time"],
      [
        `${base}/${ip}/ranges?start_time=2026-10-02T00:00:00Z&end_time=2026-10-01T00:00:00Z`,
        400,
        "query.start_time",
      ],
      [
        `${base}/${ip}/ranges?start_time=2020-01-01T00:00:00Z&end_time=2026-01-01T00:00:00Z`,
        400,
        "query.start_time",
      ],
      [`${base}/${ip}/bounds?page_size=0`, 400, "query.page_size"],
      [`${base}/${ip}/bounds?page_size=101`, 400, "query.page_size"],
      [`${base}/${ip}/bounds?record_types=MX`, 400, "query.record_types[0]"],
      [`${base}/${ip}/bounds?page_token=garbage`, 400, "query.page_token"],
    ];
    for (const [path, status, location] of cases) {
      const { res } = await v3Get(path);
      const problem = await expectProblem(res, status);
      expect(problem.errors?.[0]?.location, path).toBe(location);
    }
    await expectProblem((await v3Get(`${base}/192.0.2.1/ranges`)).res, 404);
  });
});

describe("DNS resolutions by name", () => {
  it("lists every host the name resolved to over the history, past ones included", async () => {
    const { ranges } = await expectedRanges();
    const byName = new Map<string, Range[]>();
    for (const r of ranges) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
    // Names whose hosts changed: one host held it only in the past, or it has several hosts.
    const names = [...byName]
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 6)
      .map(([name]) => name);
    for (const name of names) {
      const { res, body } = await v3Get<NameAnswer>(`/v3/global/dns/resolutions/${name}/ranges`);
      expect(res.status, name).toBe(200);
      const want = byName
        .get(name)!
        .map((r) => ({ ip: r.ip, start: r.start, end: r.end }))
        .sort((a, b) => a.ip.localeCompare(b.ip, "en", { numeric: true }) || a.start - b.start);
      const got = body.result.records.map((r) => ({
        ip: r.ip,
        start: ms(r.first_observed!),
        end: ms(r.last_observed!),
      }));
      expect(
        [...got].sort((a, b) => a.ip.localeCompare(b.ip, "en", { numeric: true }) || a.start - b.start),
      ).toEqual(want);
      expect(body.result.records.every((r) => r.record_type === "A")).toBe(true);
    }
  });

  it("finds a host that answered for the name only in an earlier version", async () => {
    const { ranges, lastSeen } = await expectedRanges();
    const past = ranges.find((r) => r.end < (lastSeen.get(r.ip) ?? 0));
    expect(past, "the test dataset has a name a host stopped answering for").toBeDefined();
    const { body } = await v3Get<NameAnswer>(`/v3/global/dns/resolutions/${past!.name}/bounds`);
    const record = body.result.records.find((r) => r.ip === past!.ip);
    expect(record).toBeDefined();
    expect(ms(record!.first_seen!)).toBeLessThanOrEqual(past!.start);
  });

  it("finds no MX, NS, SOA or TXT records, and refuses a name that is not a domain or never seen", async () => {
    const { ranges } = await expectedRanges();
    const name = ranges[0]!.name;
    const mx = await v3Get<NameAnswer>(`/v3/global/dns/resolutions/${name}/ranges?record_types=MX,TXT`);
    expect(mx.body.result).toMatchObject({ name, records: [], total_records: 0 });
    await expectProblem((await v3Get("/v3/global/dns/resolutions/not_a..name/ranges")).res, 400);
    await expectProblem((await v3Get("/v3/global/dns/resolutions/never-seen.example/bounds")).res, 404);
  });

  it("the history index holds every name and certificate any version of any host shows", async () => {
    const { ranges } = await expectedRanges();
    const { results } = await env.DB.prepare(
      "select key, ip from v3_history_index where kind = 'name' and dataset = (select value from dataset_meta where key = 'dataset')",
    ).all<{ key: string; ip: string }>();
    const indexed = new Set(results.map((r) => `${r.key} ${r.ip}`));
    const missing = ranges.filter((r) => !indexed.has(`${r.name} ${r.ip}`));
    expect(missing).toEqual([]);
  });
});
