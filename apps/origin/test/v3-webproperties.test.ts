import { env } from "cloudflare:workers";
import { v3Envelope, v3WebpropertyAssetSchema, V3_MEDIA_TYPES } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts, websiteDocs } from "./support/dataset-facts";
import { expectProblem, v3Get, v3Post } from "./v3-requests";

beforeAll(() => seedTestDataset());

const envelope = v3Envelope(v3WebpropertyAssetSchema);

interface Website {
  domain: string;
  doc: Record<string, unknown> & { ip: string; ports: number[] };
}

async function httpsWebsite(): Promise<Website> {
  const sites = (await websiteDocs()) as Website[];
  const site = sites.find((s) => s.doc.ports.includes(443) && s.doc["443"]);
  if (!site) throw new Error("the fixture has no website on 443");
  return site;
}

describe("GET /v3/global/asset/webproperty/{webproperty_id}", () => {
  it("builds a named web property from the website and its host's HTTP service", async () => {
    const site = await httpsWebsite();
    const { res, body } = await v3Get(
      `/v3/global/asset/webproperty/${encodeURIComponent(`${site.domain}:443`)}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.webproperty);
    const { resource } = envelope.parse(body).result;
    const https = (
      site.doc["443"] as {
        https: {
          get: { status_code: number; title: string };
          tls: { certificate: { parsed: { fingerprint_sha256: string } } };
        };
      }
    ).https;
    expect(resource).toMatchObject({ hostname: site.domain, port: 443 });
    expect(resource.endpoints?.[0]).toMatchObject({
      hostname: site.domain,
      ip: site.doc.ip,
      path: "/",
      http: {
        status_code: https.get.status_code,
        html_title: https.get.title,
        uri: `https://${site.domain}/`,
      },
    });
    expect(resource.cert?.fingerprint_sha256).toBe(https.tls.certificate.parsed.fingerprint_sha256);
    expect(resource.tls?.presented_chain?.[0]?.fingerprint_sha256).toBe(
      https.tls.certificate.parsed.fingerprint_sha256,
    );
    // Software comes from the host's HTTP service on that port.
    const [host] = (await hostFacts()).filter((h) => h.ip === site.doc.ip);
    const service = host!.doc.services.find((s) => s.port === 443) as unknown as
      | { software: { product: string }[] }
      | undefined;
    expect(resource.software?.map((s) => s.product)).toEqual(service?.software.map((s) => s.product) ?? []);
  });

  it("takes the hostname in any case", async () => {
    const site = await httpsWebsite();
    const { body } = await v3Get(`/v3/global/asset/webproperty/${site.domain.toUpperCase()}:443`);
    expect(envelope.parse(body).result.resource.hostname).toBe(site.domain);
  });

  it("builds an address web property from a host's HTTP service", async () => {
    const hosts = await hostFacts();
    const host = hosts.find((h) => h.doc.services.some((s) => s.service_name === "HTTP"))!;
    const service = host.doc.services.find((s) => s.service_name === "HTTP")!;
    const { res, body } = await v3Get(`/v3/global/asset/webproperty/${host.ip}:${service.port}`);
    expect(res.status).toBe(200);
    const { resource } = envelope.parse(body).result;
    expect(resource).toMatchObject({ hostname: host.ip, port: service.port });
    expect(resource.endpoints?.[0]?.http?.status_code).toBe(
      (service as unknown as { http: { response: { status_code: number } } }).http.response.status_code,
    );
  });

  it("answers 404 for a name or port the dataset does not serve", async () => {
    const site = await httpsWebsite();
    await expectProblem((await v3Get("/v3/global/asset/webproperty/nowhere.example:443")).res, 404);
    await expectProblem((await v3Get(`/v3/global/asset/webproperty/${site.domain}:8081`)).res, 404);
    await expectProblem((await v3Get("/v3/global/asset/webproperty/192.0.2.1:80")).res, 404);
  });

  it("answers 400 for an id that is not hostname:port", async () => {
    for (const id of ["example.com", "example.com:0", "example.com:99999", ":443"]) {
      const { res } = await v3Get(`/v3/global/asset/webproperty/${encodeURIComponent(id)}`);
      const problem = await expectProblem(res, 400);
      expect(problem.errors?.[0]).toMatchObject({ location: "path.webproperty_id", value: id });
    }
  });
});

describe("POST /v3/global/asset/webproperty", () => {
  it("answers the web properties found, in the order asked, each once", async () => {
    const site = await httpsWebsite();
    const ids = [
      `${site.domain}:443`,
      "nowhere.example:443",
      `${site.domain.toUpperCase()}:443`,
      `${site.domain}:80`,
    ];
    const { res, body } = await v3Post("/v3/global/asset/webproperty", { webproperty_ids: ids });
    expect(res.status).toBe(200);
    const { result } = v3Envelope(z.array(v3WebpropertyAssetSchema)).parse(body);
    const expected = [`${site.domain}:443`, ...(site.doc.ports.includes(80) ? [`${site.domain}:80`] : [])];
    expect(result.map((a) => `${a.resource.hostname}:${a.resource.port}`)).toEqual(expected);
  });

  it("refuses ids that are not hostname:port, naming each", async () => {
    const { res } = await v3Post("/v3/global/asset/webproperty", {
      webproperty_ids: ["a.example:443", "bad"],
    });
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      { location: "body.webproperty_ids[1]", message: "not a web property id hostname:port", value: "bad" },
    ]);
  });

  it("reads the hosts behind the properties at at_time", async () => {
    const site = await httpsWebsite();
    const { results } = await env.DB.prepare("select min(valid_from) as first from host_history where ip = ?")
      .bind(site.doc.ip)
      .all<{ first: number }>();
    const before = new Date(results[0]!.first - 86_400_000).toISOString();
    const { body } = await v3Post("/v3/global/asset/webproperty", {
      webproperty_ids: [`${site.domain}:443`],
      at_time: before,
    });
    // The website is known, but its host was not yet seen: no software from the host then.
    const { result } = v3Envelope(z.array(v3WebpropertyAssetSchema)).parse(body);
    expect(result[0]?.resource.software).toEqual([]);
  });
});

describe("web properties read in batches", () => {
  /** Up to 100 ids: every port of the websites, then the hosts' HTTP services by address. */
  async function manyIds(): Promise<string[]> {
    const sites = (await websiteDocs()) as Website[];
    const named = sites.flatMap((s) => s.doc.ports.map((port) => `${s.domain}:${port}`));
    const addressed = (await hostFacts()).flatMap((h) =>
      h.doc.services.filter((s) => s.service_name === "HTTP").map((s) => `${h.ip}:${s.port}`),
    );
    // Half by name where the websites have that many ports, the rest by address.
    const byName = named.slice(0, 50);
    const ids = [...byName, ...addressed.slice(0, 99 - byName.length), "nowhere.example:443"];
    expect(byName.length).toBeGreaterThan(20);
    expect(ids.length).toBe(100);
    return ids;
  }

  async function one(id: string, at_time?: string) {
    const query = at_time === undefined ? "" : `?at_time=${encodeURIComponent(at_time)}`;
    const { res, body } = await v3Get(`/v3/global/asset/webproperty/${encodeURIComponent(id)}${query}`);
    if (res.status === 404) return null;
    expect(res.status, id).toBe(200);
    return envelope.parse(body).result;
  }

  it("answers a bulk of 100 as the lookups of each one do, now and at a past time", async () => {
    const ids = await manyIds();
    const { results } = await env.DB.prepare(
      "select valid_from + (valid_to - valid_from) / 2 as t from host_history where valid_to is not null order by valid_from limit 1 offset 10",
    ).all<{ t: number }>();
    const past = new Date(results[0]!.t).toISOString();
    for (const at_time of [undefined, past]) {
      const { res, body } = await v3Post("/v3/global/asset/webproperty", {
        webproperty_ids: ids,
        ...(at_time === undefined ? {} : { at_time }),
      });
      expect(res.status).toBe(200);
      const bulk = v3Envelope(z.array(v3WebpropertyAssetSchema)).parse(body).result;
      const singles = [];
      for (const id of ids) {
        const found = await one(id, at_time);
        if (found) singles.push(found);
      }
      expect(singles.length).toBeGreaterThan(50);
      expect(bulk).toEqual(singles);
    }
  }, 90_000);

  it("answers web search hits as the lookups of each property do", async () => {
    const { res, body } = await v3Post("/v3/global/search/query", {
      query: "web.hostname: *",
      page_size: 100,
    });
    expect(res.status).toBe(200);
    const hits = (
      body as { result: { hits: { webproperty_v1: { resource: { hostname: string; port: number } } }[] } }
    ).result.hits;
    expect(hits.length).toBeGreaterThan(20);
    for (const hit of hits) {
      const { hostname, port } = hit.webproperty_v1.resource;
      expect(hit.webproperty_v1).toEqual(await one(`${hostname}:${port}`));
    }
  }, 90_000);
});
