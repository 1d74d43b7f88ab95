import {
  V3_BULK_IDS_MAX,
  V3_MEDIA_TYPES,
  v3Envelope,
  v3OrganizationCreditsSchema,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Ledgers } from "../src/ledger/ledgers";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { ledgerHeld } from "./support/ledger";
import { type LedgerCalls, spyOnLedgers } from "./support/ledger-spy";
import { ORIGIN_PLATFORM, originFacts, type OriginFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, type Fetch, tenantWithToken, usedOf as used } from "./support/requests";
import { type TestEdge, testEdge } from "./support/test-edge";

// The bulk lookups' GET form (`?host_ids=a,b`, as the Platform SDKs before 0.6 send them: the
// Python SDK 0.5.1's `get_hosts`) through the edge: the same document cache and per-asset price
// as the POST form, asked upstream with the POST, so the two forms share cached rows. Documents
// stay in D1 for the whole file, so each test looks up ids no other test has.

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const ORG = ORIGIN_PLATFORM.organization_id;
const HOSTS = "/v3/global/asset/host";

let facts: OriginFacts;
beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
  facts = await originFacts();
});

const host = (n: number) => facts.hosts[n] ?? "";

const get = (path: string, auth: string) => buildRequest("GET", path, { auth });
const post = (path: string, auth: string, body: unknown) => buildRequest("POST", path, { auth, body });
const hostsQuery = (ids: string[], extra = "") =>
  `${HOSTS}?host_ids=${ids.map(encodeURIComponent).join(",")}${extra}`;

/** Upstream calls to exactly `path`. */
function callsTo(edge: TestEdge, path: string): Request[] {
  return edge.upstream.requests.filter((r) => new URL(r.url).pathname === path);
}

/** The pool organization's balance at the origin (reading it is free). */
async function originBalance(fetcher: Fetch, auth: string): Promise<number> {
  const res = await fetcher(get(`/v3/accounts/organizations/${ORG}/credits`, auth));
  expect(res.status).toBe(200);
  return v3Envelope(v3OrganizationCreditsSchema).parse(await res.json()).result.balance;
}

const ips = (body: unknown) =>
  (body as { result: { resource: { ip: string } }[] }).result.map((a) => a.resource.ip);

/** The tenants' ledgers, writing down the ledger calls made and the credits of each hold taken. */
function watchedLedgers(calls: LedgerCalls, held: number[]): (ledgers: Ledgers) => Ledgers {
  return (inner) => {
    const spied = spyOnLedgers(calls)(inner);
    return (tenantId) => {
      const client = spied(tenantId);
      return {
        ...client,
        charge: (requests) => {
          held.push(...requests.flatMap((r) => (r.holdMs === undefined ? [] : [r.cost])));
          return client.charge(requests);
        },
      };
    };
  };
}

async function setup(allowance = 100) {
  const edge = testEdge({ vars: VARS });
  const { id, auth } = await tenantWithToken(edge.fetch, allowance);
  return { edge, id, auth };
}

describe("GET bulk lookups through the cache", () => {
  it("asks the upstream one POST for the ids, and answers a second GET from the cache at no charge", async () => {
    const { edge, id, auth } = await setup();
    const [a, b] = [host(0), host(1)];
    const unknown = "198.51.100.81";
    const first = await edge.fetch(get(hostsQuery([b, unknown, a, b]), auth));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe(V3_MEDIA_TYPES.host);
    expect(ips(await first.json())).toEqual([b, a]);
    const [call, ...more] = callsTo(edge, HOSTS);
    expect(more).toHaveLength(0);
    expect(call?.method).toBe("POST");
    expect(await call?.json()).toEqual({ host_ids: [b, unknown, a] });
    expect(await used(edge.fetch, id)).toBe(2);

    const again = await edge.fetch(get(hostsQuery([b, unknown, a, b]), auth));
    expect(again.status).toBe(200);
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(ips(await again.json())).toEqual([b, a]);
    expect(callsTo(edge, HOSTS)).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("shares cached rows with the POST both ways, answering the same body", async () => {
    const { edge, id, auth } = await setup();
    const [a, b, c] = [host(2), host(3), host(4)];
    const posted = await edge.fetch(post(HOSTS, auth, { host_ids: [a, b] }));
    const postedText = await posted.text();
    const got = await edge.fetch(get(hostsQuery([a, b]), auth));
    expect(got.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await got.text()).toBe(postedText);

    const gotFirst = await edge.fetch(get(hostsQuery([c]), auth));
    const postedAfter = await edge.fetch(post(HOSTS, auth, { host_ids: [c] }));
    expect(postedAfter.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await postedAfter.text()).toBe(await gotFirst.text());
    expect(callsTo(edge, HOSTS)).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(3);
  });

  it("serves at_time from the rows a POST at that at_time cached", async () => {
    const { edge, auth } = await setup();
    const { ip, atTime } = facts.historic;
    const posted = await edge.fetch(post(HOSTS, auth, { host_ids: [ip], at_time: atTime }));
    const got = await edge.fetch(get(hostsQuery([ip], `&at_time=${encodeURIComponent(atTime)}`), auth));
    expect(got.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await got.text()).toBe(await posted.text());
  });

  it("serves certificates and web properties by GET as the POST does", async () => {
    const { edge, id, auth } = await setup();
    const [fingerprint] = facts.certificates;
    const [domain] = facts.httpsWebsites;
    const certificates = await edge.fetch(
      get(`/v3/global/asset/certificate?certificate_ids=${fingerprint},${"0".repeat(64)}`, auth),
    );
    expect(certificates.status).toBe(200);
    expect(certificates.headers.get("content-type")).toBe(V3_MEDIA_TYPES.certificate);
    const certificatesText = await certificates.text();
    const postedCertificates = await edge.fetch(
      post("/v3/global/asset/certificate", auth, { certificate_ids: [fingerprint, "0".repeat(64)] }),
    );
    expect(postedCertificates.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await postedCertificates.text()).toBe(certificatesText);

    const properties = await edge.fetch(
      get(`/v3/global/asset/webproperty?webproperty_ids=${domain}:443`, auth),
    );
    expect(properties.status).toBe(200);
    expect(properties.headers.get("content-type")).toBe(V3_MEDIA_TYPES.webproperty);
    expect(await properties.json()).toMatchObject({
      result: [{ resource: { hostname: domain } }],
    });
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("charges exactly what the origin's organization lost, cached ids free", async () => {
    const { edge, id, auth } = await setup();
    const [a, b, c] = [host(5), host(6), host(7)];
    const before = await originBalance(edge.fetch, auth);
    expect((await edge.fetch(get(`${HOSTS}/${a}`, auth))).status).toBe(200);
    expect((await edge.fetch(get(hostsQuery([a, b, "203.0.113.91"]), auth))).status).toBe(200);
    expect((await edge.fetch(get(hostsQuery([c, a, b]), auth))).status).toBe(200);
    // a once (the single lookup), b and c once each: the bulks' cached ids cost nothing.
    expect(await used(edge.fetch, id)).toBe(3);
    expect(before - (await originBalance(edge.fetch, auth))).toBe(3);
  });

  it("refuses a GET that would overspend with 422 before it reaches the upstream", async () => {
    const { edge, id, auth } = await setup(1);
    const res = await edge.fetch(get(hostsQuery([host(8), host(9)]), auth));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(callsTo(edge, HOSTS)).toHaveLength(0);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("sends a repeated bulk the cache answered whole its kept body, per form, and assembles anew once a row changed", async () => {
    const { edge, id, auth } = await setup();
    const [a, b] = [host(8), host(9)];
    await edge.fetch(post(HOSTS, auth, { host_ids: [a, b] }));
    const first = await (await edge.fetch(post(HOSTS, auth, { host_ids: [a, b] }))).text();
    const again = await edge.fetch(post(HOSTS, auth, { host_ids: [a, b] }));
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await again.text()).toBe(first);
    const byGet = await (await edge.fetch(get(hostsQuery([a, b]), auth))).text();
    expect(await (await edge.fetch(get(hostsQuery([a, b]), auth))).text()).toBe(byGet);
    expect(byGet).toBe(first);
    // One kept answer for each form: they are different requests with the same answer.
    expect(edge.services().bulkAnswers.size).toBe(2);
    expect(callsTo(edge, HOSTS)).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(2);

    // Another version of b in D1, found once the memory tier no longer holds the old one.
    const [assetA, assetB] = (JSON.parse(first) as { result: Array<Record<string, unknown>> }).result;
    const marked = { ...assetB, marked: true };
    await env.DB.prepare("update documents set body = ? where id = ?").bind(JSON.stringify(marked), b).run();
    edge.clock.advance(6_000);
    for (const request of [post(HOSTS, auth, { host_ids: [a, b] }), get(hostsQuery([a, b]), auth)]) {
      const changed = await edge.fetch(request);
      expect(changed.headers.get("Cache-Status")).toBe("scangate; hit");
      const { result } = await changed.json<{ result: unknown[] }>();
      expect(result).toEqual([assetA, marked]);
    }
    expect(callsTo(edge, HOSTS)).toHaveLength(1);
  });
});

describe("GET bulk lookups the cache cannot describe", () => {
  it("answers the POST's problem+json for a missing, empty or oversized list, a bad id or a bad at_time, for nothing", async () => {
    // Room to hold an oversized list's ids, as a POST of them holds its body's.
    const { edge, id, auth } = await setup(1_000);
    const tooMany = Array.from({ length: V3_BULK_IDS_MAX + 1 }, (_, i) => `192.0.2.${i % 250}`);
    const cases: [string, string][] = [
      [HOSTS, "query.host_ids"],
      [`${HOSTS}?host_ids=`, "query.host_ids"],
      [hostsQuery(tooMany), "query.host_ids"],
      [hostsQuery([host(10), "nope"]), "query.host_ids[1]"],
      [hostsQuery([host(10)], "&at_time=yesterday"), "query.at_time"],
    ];
    for (const [path, location] of cases) {
      const res = await edge.fetch(get(path, auth));
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = v3ProblemSchema.parse(await res.json());
      expect(problem.status).toBe(400);
      expect(problem.errors?.[0]?.location, path).toBe(location);
    }
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("forwards a GET with a parameter it does not know as sent, for the upstream's own answer", async () => {
    const { edge, id, auth } = await setup();
    const [a, b] = [host(11), host(12)];
    const before = await originBalance(edge.fetch, auth);
    const res = await edge.fetch(get(hostsQuery([a, b], "&other=1"), auth));
    expect(res.status).toBe(200);
    expect(ips(await res.json())).toEqual([a, b]);
    const [call] = callsTo(edge, HOSTS);
    expect(call?.method).toBe("GET");
    expect(await used(edge.fetch, id)).toBe(2);
    expect(before - (await originBalance(edge.fetch, auth))).toBe(2);
  });

  it("holds a forwarded GET's distinct ids and settles to the hosts answered, as the forwarded POST", async () => {
    const calls: LedgerCalls = [];
    const held: number[] = [];
    const edge = testEdge({ vars: VARS, overrides: { ledgers: watchedLedgers(calls, held) } });
    // Room for the GET's 2 hosts answered and then the POST's hold of 4: not for a GET charged 4.
    const { id, auth } = await tenantWithToken(edge.fetch, 6);
    const [a, b] = [host(13), host(14)];
    const [unknown1, unknown2] = ["203.0.113.93", "198.51.100.93"];
    const before = await originBalance(edge.fetch, auth);
    // A repeated key adds its ids, as the upstream reads them: a, unknown1, b, unknown2, a again.
    const query = `?host_ids=${a},${unknown1},${b}&host_ids=${unknown2},${a}&other=1`;
    const res = await edge.fetch(get(`${HOSTS}${query}`, auth));
    expect(res.status).toBe(200);
    expect(ips(await res.json())).toEqual([a, b]);
    const [call, ...more] = callsTo(edge, HOSTS);
    expect(more).toHaveLength(0);
    expect(call?.method).toBe("GET");
    expect(new URL(call?.url ?? "").search).toBe(query);
    expect(held).toEqual([4]);
    expect(calls.filter((name) => name !== "read")).toEqual(["charge", "settle"]);
    expect(await used(edge.fetch, id)).toBe(2);
    expect(await ledgerHeld(id)).toBe(0);
    expect(before - (await originBalance(edge.fetch, auth))).toBe(2);

    const posted = await edge.fetch(
      post(`${HOSTS}?other=1`, auth, { host_ids: [a, unknown1, b, unknown2, a] }),
    );
    expect(posted.status).toBe(200);
    expect(ips(await posted.json())).toEqual([a, b]);
    expect(callsTo(edge, HOSTS).map((r) => r.method)).toEqual(["GET", "POST"]);
    expect(held).toEqual([4, 4]);
    expect(await used(edge.fetch, id)).toBe(4);
    expect(before - (await originBalance(edge.fetch, auth))).toBe(4);
  });

  it("costs nothing for a forwarded GET the upstream refuses, holding nothing for one that names no id", async () => {
    const calls: LedgerCalls = [];
    const held: number[] = [];
    const edge = testEdge({ vars: VARS, overrides: { ledgers: watchedLedgers(calls, held) } });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const cases: [string, string][] = [
      [hostsQuery([host(15), "nope"], "&other=1"), "query.host_ids[1]"],
      [`${HOSTS}?other=1`, "query.host_ids"],
    ];
    for (const [path, location] of cases) {
      const res = await edge.fetch(get(path, auth));
      expect(res.status, path).toBe(400);
      expect(v3ProblemSchema.parse(await res.json()).errors?.[0]?.location, path).toBe(location);
    }
    expect(callsTo(edge, HOSTS)).toHaveLength(2);
    // The bad id's 2 held and settled to nothing; no id, no hold.
    expect(held).toEqual([2]);
    expect(calls.filter((name) => name !== "read")).toEqual(["charge", "settle"]);
    expect(await used(edge.fetch, id)).toBe(0);
    expect(await ledgerHeld(id)).toBe(0);
  });
});
