import { env } from "cloudflare:workers";
import { CREDIT_COSTS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { THREATS } from "../src/dataset/threats";
import { threatList } from "../src/services/v3-threats";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts, websiteDocs } from "./support/dataset-facts";
import { platformOrg, rowCount } from "./support/platform-org";
import * as sdk from "./support/sdk-models";
import { balanceOf, expectProblem } from "./v3-requests";

/**
 * GET /v3/threat-hunting/threats over the seeded dataset: each threat's hosts and web
 * properties counted from the documents here, in plain JavaScript, and compared with the list;
 * the CenQL `query` narrowing the assets; its refusals and its price.
 */

type Json = Record<string, unknown>;
type ThreatItem = NonNullable<z.infer<typeof sdk.sdkThreatsList>["threats"]>[number];

const PATH = "/v3/threat-hunting/threats";
/** A website seeded on a threatened host, holding the threat's port and one without it. */
const SITE = "threat-site.test";

interface Counts {
  hosts: Map<string, number>;
  web: Map<string, number>;
}

const threatIds = (service: Json): string[] =>
  (Array.isArray(service.threats) ? (service.threats as Json[]) : []).map((t) => String(t.id));
const servicesOf = (doc: Json): Json[] => (Array.isArray(doc.services) ? (doc.services as Json[]) : []);

/**
 * What the list should say, from the documents: a host counts once per threat any of its
 * services carries; a web property (`domain:port`, a port key of the website document) counts
 * when the service on that port of the website's host carries it.
 */
async function expectedCounts(selectHost: (ip: string) => boolean, selectSite: (domain: string) => boolean) {
  const hosts = await hostFacts();
  const counts: Counts = { hosts: new Map(), web: new Map() };
  const add = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);
  for (const host of hosts.filter((h) => selectHost(h.ip)))
    for (const id of new Set(servicesOf(host.doc).flatMap(threatIds))) add(counts.hosts, id);
  const byIp = new Map(hosts.map((h) => [h.ip, h]));
  for (const site of (await websiteDocs()).filter((s) => selectSite(s.domain))) {
    const host = byIp.get(String(site.doc.ip));
    const ports = Object.keys(site.doc).filter((key) => /^\d+$/.test(key));
    for (const port of ports) {
      const onPort = servicesOf(host?.doc ?? {}).filter((s) => String(s.port) === port);
      for (const id of new Set(onPort.flatMap(threatIds))) add(counts.web, id);
    }
  }
  return counts;
}

/** The list's items as `id → [host_count, web_count]`. */
function countsOf(items: readonly ThreatItem[]): Map<string, [number, number]> {
  return new Map(items.map((t) => [t.id, [t.host_count, t.web_count]]));
}

function asList(counts: Counts): Map<string, [number, number]> {
  const ids = new Set([...counts.hosts.keys(), ...counts.web.keys()]);
  return new Map([...ids].map((id) => [id, [counts.hosts.get(id) ?? 0, counts.web.get(id) ?? 0]]));
}

let threatened: { ip: string; ids: string[] };

beforeAll(async () => {
  await seedTestDataset();
  // Every dataset plants a threat (its first hosting server): give that host a website whose
  // ports are the threat's and one the threat is not on, so a web property carries it.
  const hosts = await hostFacts();
  const host = hosts.find((h) => servicesOf(h.doc).some((s) => threatIds(s).length > 0));
  if (!host) throw new Error("the seeded dataset planted no threat");
  const services = servicesOf(host.doc);
  const service = services.find((s) => threatIds(s).length > 0)!;
  const clean = services.find((s) => threatIds(s).length === 0 && s.port !== service.port);
  const port = Number(service.port);
  const doc = {
    domain: SITE,
    ip: host.ip,
    [port]: { https: {} },
    [Number(clean?.port ?? 65000)]: { http: {} },
  };
  await env.DB.prepare("INSERT INTO websites (domain, ip, ip_num, updated_at, doc) VALUES (?, ?, ?, ?, ?)")
    .bind(SITE, host.ip, host.ip_num, Date.now(), JSON.stringify(doc))
    .run();
  threatened = { ip: host.ip, ids: threatIds(service) };
});

async function list(org: ReturnType<typeof platformOrg>, query?: string) {
  const path = query === undefined ? PATH : `${PATH}?query=${encodeURIComponent(query)}`;
  const { status, body } = await org.json<Json>("GET", path);
  expect(status, JSON.stringify(body)).toBe(200);
  return sdk.sdkThreatsList.parse((body as { result: unknown }).result).threats ?? [];
}

describe("the threats list", () => {
  it("lists each threat the seeded hosts and web properties carry, counted from the documents", async () => {
    const org = platformOrg("org-threats");
    const threats = await list(org);
    const expected = await expectedCounts(
      () => true,
      () => true,
    );
    expect(countsOf(threats)).toEqual(asList(expected));
    expect(threats.length).toBeGreaterThan(0);
    // The seeded site's threat port is a web property carrying the threat; its other port is not.
    for (const id of threatened.ids) expect(expected.web.get(id)).toBeGreaterThan(0);
    for (const item of threats) {
      expect(item.count).toBe(item.host_count + item.web_count);
      expect(item.count).toBeGreaterThan(0);
      const profile = THREATS.find((t) => t.id === item.id);
      expect(item).toMatchObject({ name: profile?.name, description: profile?.description });
      expect(item.added_at).toBe(`${profile?.added}T00:00:00Z`);
      expect(item.references?.length).toBeGreaterThan(0);
    }
    // Most assets first.
    const totals = threats.map((t) => t.count);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
  });

  it("reads `*` and an empty query as every asset", async () => {
    const org = platformOrg("org-threats-star");
    const all = countsOf(await list(org));
    expect(countsOf(await list(org, "*"))).toEqual(all);
    expect(countsOf(await list(org, ""))).toEqual(all);
  });

  it("counts only the hosts a host query selects, and no web property", async () => {
    const org = platformOrg("org-threats-host-query");
    const threats = await list(org, `host.ip = "${threatened.ip}"`);
    const expected = await expectedCounts(
      (ip) => ip === threatened.ip,
      () => false,
    );
    expect(countsOf(threats)).toEqual(asList(expected));
    expect(threats.every((t) => t.host_count === 1 && t.web_count === 0)).toBe(true);
  });

  it("counts only the web properties a web query selects, and no host", async () => {
    const org = platformOrg("org-threats-web-query");
    const threats = await list(org, `web.hostname = "${SITE}"`);
    expect(countsOf(threats)).toEqual(new Map(threatened.ids.map((id) => [id, [0, 1]])));
  });

  it("reads a query naming hosts and web properties on each", async () => {
    const org = platformOrg("org-threats-both");
    const threats = await list(org, `host.ip = "${threatened.ip}" or web.hostname = "${SITE}"`);
    const expected = await expectedCounts(
      (ip) => ip === threatened.ip,
      (domain) => domain === SITE,
    );
    expect(countsOf(threats)).toEqual(asList(expected));
  });

  it("answers an empty list when the query selects no threatened asset", async () => {
    const org = platformOrg("org-threats-none");
    expect(await list(org, `host.ip = "192.0.2.1"`)).toEqual([]);
    expect(await list(org, `cert.names = "${SITE}"`)).toEqual([]);
  });

  it("is one whole list: paging parameters, which the SDK does not send, change nothing", async () => {
    const org = platformOrg("org-threats-whole");
    const all = await list(org);
    const { body } = await org.json<{ result: Json }>("GET", `${PATH}?page_size=1&page_token=x`);
    expect(body.result).toEqual({ threats: all });
  });

  it("charges one credit a call", async () => {
    const org = platformOrg("org-threats-credits");
    await list(org);
    expect(await balanceOf(org.id)).toBe(100_000 - CREDIT_COSTS.v3_threats.credits);
    await list(org, `host.ip = "${threatened.ip}"`);
    expect(await balanceOf(org.id)).toBe(100_000 - 2 * CREDIT_COSTS.v3_threats.credits);
  });

  it("refuses a query that does not parse, names an unknown field or is too long with 400, charging and writing nothing", async () => {
    const org = platformOrg("org-threats-refusals");
    const queries = ["host.services.port: (", "host.no_such_field: 1", "x".repeat(4097)];
    for (const query of queries) {
      const res = await org.call("GET", `${PATH}?query=${encodeURIComponent(query)}`);
      const problem = await expectProblem(res, 400);
      expect(problem.errors?.[0]?.location, query.slice(0, 40)).toBe("query.query");
      expect(problem.detail).toBeTruthy();
    }
    const notUtf8 = await org.call("GET", `${PATH}?query=%ED%A0%80`);
    await expectProblem(notUtf8, 400);
    expect(await balanceOf(org.id)).toBe(null);
    expect(await rowCount("credit_transactions", "organization_id = ?", org.id)).toBe(0);
  });
});

describe("threatList", () => {
  const [first, second, third] = THREATS;

  it("keeps active threats only, most assets first, with the catalogue's description and references", () => {
    const items = threatList(
      [first!, second!, third!],
      new Map([
        [first!.id, { hosts: 1, web: 0 }],
        [second!.id, { hosts: 2, web: 3 }],
        [third!.id, { hosts: 0, web: 0 }],
        ["not-catalogued", { hosts: 9, web: 9 }],
      ]),
    );
    expect(items.map((t) => [t.id, t.count, t.host_count, t.web_count])).toEqual([
      [second!.id, 5, 2, 3],
      [first!.id, 1, 1, 0],
    ]);
    expect(items[1]?.references).toEqual([
      ...first!.references.map((link) => ({ link })),
      { link: `https://malpedia.caad.fkie.fraunhofer.de/details/${first!.malware.malpedia_id}` },
    ]);
  });

  it("orders threats of equal counts by name", () => {
    const items = threatList(THREATS, new Map(THREATS.map((t) => [t.id, { hosts: 1, web: 0 }])));
    expect(items.map((t) => t.name)).toEqual(THREATS.map((t) => t.name).sort((a, b) => a.localeCompare(b)));
  });
});
