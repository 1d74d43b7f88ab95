import {
  v3Envelope,
  v3SearchAggregateResponseSchema,
  v3SearchConvertResponseSchema,
  v3SearchQueryResponseSchema,
  V3_CONVERT_QUERIES_MAX,
  V3_MEDIA_TYPES,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts, tally, websiteDocs } from "./support/dataset-facts";
import { call } from "./support/requests";
import { balanceOf, expectProblem, platformAccount, v3Post } from "./v3-requests";

beforeAll(() => seedTestDataset());

const queryEnvelope = v3Envelope(v3SearchQueryResponseSchema);
const aggregateEnvelope = v3Envelope(v3SearchAggregateResponseSchema);
const convertEnvelope = v3Envelope(v3SearchConvertResponseSchema);

async function query(body: Record<string, unknown>) {
  const { res, body: json } = await v3Post("/v3/global/search/query", body);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.json);
  return queryEnvelope.parse(json).result;
}

/** Every page of `body`'s query, following next_page_token to the end. */
async function allPages(body: Record<string, unknown>) {
  const pages = [];
  let token = "";
  do {
    const page = await query({ ...body, ...(token ? { page_token: token } : {}) });
    pages.push(page);
    token = page.next_page_token;
  } while (token !== "" && pages.length < 100);
  return pages;
}

describe("POST /v3/global/search/query", () => {
  it("pages hosts to the end: every matching host once, in total_hits, with tokens at the ends", async () => {
    const hosts = await hostFacts();
    const ssh = hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH"));
    expect(ssh.length).toBeGreaterThan(3);
    const pages = await allPages({ query: "host.services.protocol: SSH", page_size: 3 });
    const ips = pages.flatMap((p) => p.hits.map((h) => h.host_v1?.resource.ip));
    expect(ips).toEqual(ssh.map((h) => h.ip));
    for (const page of pages) {
      expect(page.total_hits).toBe(ssh.length);
      expect(page.hits.length).toBeLessThanOrEqual(3);
    }
    expect(pages[0]!.previous_page_token).toBe("");
    expect(pages.at(-1)!.next_page_token).toBe("");
    expect(pages.length).toBe(Math.ceil(ssh.length / 3));
  });

  it("walks back with previous_page_token to the same hits", async () => {
    const first = await query({ query: "host.services.protocol: SSH", page_size: 2 });
    const second = await query({
      query: "host.services.protocol: SSH",
      page_size: 2,
      page_token: first.next_page_token,
    });
    expect(second.previous_page_token).not.toBe("");
    const back = await query({
      query: "host.services.protocol: SSH",
      page_size: 2,
      page_token: second.previous_page_token,
    });
    expect(back.hits.map((h) => h.host_v1?.resource.ip)).toEqual(
      first.hits.map((h) => h.host_v1?.resource.ip),
    );
    expect(back.previous_page_token).toBe("");
  });

  it("answers host hits with matched_services, defaulting to pages of 100", async () => {
    const hosts = await hostFacts();
    const page = await query({ query: "host.location.country: *" });
    const expected = hosts.filter((h) => h.doc.location?.country !== undefined).length;
    expect(page.total_hits).toBe(expected);
    expect(page.hits.length).toBe(Math.min(100, expected));
    const hit = page.hits[0]!.host_v1!;
    const facts = hosts.find((h) => h.ip === hit.resource.ip)!;
    expect(hit.matched_services?.map((s) => s.port).sort()).toEqual(
      facts.doc.services.map((s) => s.port).sort(),
    );
  });

  it("narrows matched_services to the services the query matched, in the host's order", async () => {
    const hosts = await hostFacts();
    type Facts = (typeof hosts)[number];
    type Service = Facts["doc"]["services"][number];
    const cases: [string, (h: Facts) => boolean, (s: Service) => boolean][] = [
      [
        "host.services.protocol: SSH",
        (h) => h.doc.services.some((s) => s.service_name === "SSH"),
        (s) => s.service_name === "SSH",
      ],
      [
        "host.services: (protocol: HTTP and not port: 80)",
        (h) => h.doc.services.some((s) => s.service_name === "HTTP" && s.port !== 80),
        (s) => s.service_name === "HTTP" && s.port !== 80,
      ],
      [
        // Conditions on separate services match a host; on each service, both must hold.
        "host.services.port: 22 or host.services.protocol: DNS",
        (h) => h.doc.services.some((s) => s.port === 22 || s.service_name === "DNS"),
        (s) => s.port === 22 || s.service_name === "DNS",
      ],
      ["not host.services.port: 22", (h) => !h.doc.services.some((s) => s.port === 22), (s) => s.port !== 22],
    ];
    for (const [q, hostTest, serviceTest] of cases) {
      const expected = hosts.filter(hostTest);
      expect(expected.length, q).toBeGreaterThan(0);
      const pages = await allPages({ query: q, page_size: 100 });
      const hits = pages.flatMap((p) => p.hits.map((h) => h.host_v1!));
      expect(
        hits.map((h) => h.resource.ip),
        q,
      ).toEqual(expected.map((h) => h.ip));
      for (const [i, hit] of hits.entries()) {
        const facts = expected[i]!;
        expect(hit.matched_services, `${q}: ${facts.ip}`).toEqual(
          facts.doc.services.filter(serviceTest).map((s) => ({
            port: s.port,
            protocol: s.service_name,
            transport_protocol: s.transport_protocol.toLowerCase(),
          })),
        );
      }
      // Some hit has services the query did not match, so the narrowing is seen.
      if (q === "host.services.protocol: SSH")
        expect(hits.some((h) => (h.matched_services?.length ?? 0) < (h.resource.services?.length ?? 0))).toBe(
          true,
        );
    }
  });

  it("projects fields and leaves matched_services out when the service fields are omitted", async () => {
    const page = await query({ query: "host.services.port: 22", fields: ["host.ip"], page_size: 5 });
    for (const hit of page.hits) {
      expect(Object.keys(hit.host_v1!.resource)).toEqual(["ip"]);
      expect(hit.host_v1!.matched_services).toBeUndefined();
    }
    const withServices = await query({
      query: "host.services.port: 22",
      fields: ["host.ip", "host.services.port"],
      page_size: 5,
    });
    for (const hit of withServices.hits) {
      expect(hit.host_v1!.matched_services).toBeDefined();
      for (const service of hit.host_v1!.resource.services ?? [])
        expect(Object.keys(service)).toEqual(["port"]);
    }
  });

  it("answers certificate hits", async () => {
    const certs = await certificateDocs();
    const fingerprint = certs[0]!.sha256;
    const page = await query({ query: `cert.fingerprint_sha256: ${fingerprint}` });
    expect(page.total_hits).toBe(1);
    expect(page.hits[0]!.certificate_v1!.resource.fingerprint_sha256).toBe(fingerprint.toLowerCase());
    const all = await allPages({ query: "cert.fingerprint_sha256: *", page_size: 50 });
    const seen = all.flatMap((p) => p.hits.map((h) => h.certificate_v1!.resource.fingerprint_sha256));
    expect(new Set(seen).size).toBe(certs.length);
    expect(seen.length).toBe(certs.length);
  });

  it("answers web property hits, one per port of each matching domain", async () => {
    const sites = (await websiteDocs()) as { domain: string; doc: { ports: number[] } }[];
    const expected = sites.flatMap((s) =>
      [...s.doc.ports].sort((a, b) => a - b).map((p) => `${s.domain}:${p}`),
    );
    const pages = await allPages({ query: "web.hostname: *", page_size: 4 });
    const ids = pages.flatMap((p) =>
      p.hits.map((h) => `${h.webproperty_v1!.resource.hostname}:${h.webproperty_v1!.resource.port}`),
    );
    expect(pages[0]!.total_hits).toBe(expected.length);
    expect(new Set(ids)).toEqual(new Set(expected.map((id) => id.toLowerCase())));
    expect(ids.length).toBe(expected.length);
    for (const page of pages.slice(0, -1)) expect(page.hits.length).toBe(4);
  });

  it("refuses a CenQL error with a 400 problem saying where it failed", async () => {
    const { res } = await v3Post("/v3/global/search/query", { query: "host.services.port: (22" });
    const problem = await expectProblem(res, 400);
    expect(problem.detail).toMatch(/at position \d+/);
    expect(problem.errors?.[0]).toMatchObject({ location: "body.query", value: "host.services.port: (22" });
    expect(typeof problem.position).toBe("number");

    const unknown = await expectProblem(
      (await v3Post("/v3/global/search/query", { query: "host.nope: 1" })).res,
      400,
    );
    expect(unknown.detail).toContain("host.nope");
  });

  it("refuses a garbage, forged or mismatched page_token and out-of-range page_size", async () => {
    for (const page_token of ["garbage", "eyJ9.AAAA"]) {
      const { res } = await v3Post("/v3/global/search/query", {
        query: "host.services.port: 22",
        page_token,
      });
      const problem = await expectProblem(res, 400);
      expect(problem.errors?.[0]?.location).toBe("body.page_token");
    }
    const first = await query({ query: "host.services.port: 22", page_size: 1 });
    expect(first.next_page_token).not.toBe("");
    const { res } = await v3Post("/v3/global/search/query", {
      query: "host.services.port: 80",
      page_size: 1,
      page_token: first.next_page_token,
    });
    expect((await expectProblem(res, 400)).detail).toContain("another query");
    for (const page_size of [0, 101, 1.5]) {
      const bad = await v3Post("/v3/global/search/query", { query: "host.services.port: 22", page_size });
      expect((await expectProblem(bad.res, 400)).errors?.[0]?.location).toBe("body.page_size");
    }
    const noFieldResource = await v3Post("/v3/global/search/query", {
      query: "host.services.port: 22",
      fields: ["ip"],
    });
    expect((await expectProblem(noFieldResource.res, 400)).errors?.[0]?.location).toBe("body.fields[0]");
  });

  it("charges 1 credit per page and nothing for a refused query", async () => {
    const org = platformAccount().organization_id;
    await query({ query: "host.services.port: 22", page_size: 1 });
    const before = await balanceOf(org);
    await query({ query: "host.services.port: 22", page_size: 1 });
    expect(await balanceOf(org)).toBe(before! - 1);
    await v3Post("/v3/global/search/query", { query: "(" });
    expect(await balanceOf(org)).toBe(before! - 1);
  });

  it("requires the bearer token", async () => {
    const { res } = await v3Post(
      "/v3/global/search/query",
      { query: "host.services.port: 22" },
      { token: null },
    );
    await expectProblem(res, 401);
    const bad = await v3Post("/v3/global/search/query", { query: "x" }, { token: "not-a-token" });
    await expectProblem(bad.res, 401);
  });
});

describe("POST /v3/global/search/aggregate", () => {
  async function aggregate(body: Record<string, unknown>) {
    const { res, body: json } = await v3Post("/v3/global/search/aggregate", body);
    expect(res.status).toBe(200);
    return aggregateEnvelope.parse(json).result;
  }

  it("counts the same buckets as the legacy v2 aggregate for the same query", async () => {
    const result = await aggregate({
      query: "host.services.protocol: SSH",
      field: "host.services.port",
      number_of_buckets: 3,
    });
    const legacy = await call(
      "GET",
      `/api/v2/hosts/aggregate?q=${encodeURIComponent("services.service_name: SSH")}&field=services.port&num_buckets=3`,
    );
    expect(legacy.status).toBe(200);
    const v2 = (
      await legacy.json<{
        result: { total: number; total_omitted: number; buckets: { key: unknown; count: number }[] };
      }>()
    ).result;
    expect(result.buckets).toEqual(v2.buckets.map((b) => ({ key: String(b.key), count: b.count })));
    expect(result.total_count).toBe(v2.total);
    expect(result.other_count).toBe(v2.total_omitted);
    expect(result.buckets.length).toBeLessThanOrEqual(3);
  });

  it("counts a root field over every host for an empty query, by any equivalent level", async () => {
    const hosts = await hostFacts();
    for (const count_by_level of [undefined, "", ".", "host"]) {
      const result = await aggregate({
        query: "",
        field: "host.location.country",
        number_of_buckets: 1000,
        ...(count_by_level === undefined ? {} : { count_by_level }),
      });
      expect(result.total_count).toBe(hosts.length);
      const sum = result.buckets.reduce((n, b) => n + b.count, 0);
      expect(sum).toBe(hosts.filter((h) => h.doc.location?.country !== undefined).length);
      expect(result.other_count).toBe(0);
      expect(result.is_more_than_total_hits).toBe(false);
    }
  });

  it("counts service fields per service (is_more_than_total_hits) at level host.services", async () => {
    const hosts = await hostFacts();
    const result = await aggregate({
      query: "",
      field: "host.services.port",
      number_of_buckets: 1000,
      count_by_level: "host.services",
      filter_by_query: false,
    });
    const services = hosts.reduce((n, h) => n + h.doc.services.length, 0);
    expect(result.buckets.reduce((n, b) => n + b.count, 0)).toBe(services);
    expect(result.is_more_than_total_hits).toBe(services > hosts.length);
  });

  it('counts hosts, once per value, by count_by_level "." (or "host")', async () => {
    const hosts = await hostFacts();
    const ssh = hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH"));
    // Each SSH host once per distinct port of any of its services.
    const expected = tally(ssh.flatMap((h) => [...new Set(h.doc.services.map((s) => String(s.port)))]));
    for (const count_by_level of [".", "host"]) {
      const result = await aggregate({
        query: "host.services.protocol: SSH",
        field: "host.services.port",
        number_of_buckets: 1000,
        count_by_level,
      });
      expect(result.buckets).toEqual(expected);
      expect(result.total_count).toBe(ssh.length);
      expect(result.other_count).toBe(0);
      const pairs = expected.reduce((n, b) => n + b.count, 0);
      expect(result.is_more_than_total_hits).toBe(pairs > ssh.length);
    }
    const top = await aggregate({
      query: "host.services.protocol: SSH",
      field: "host.services.port",
      number_of_buckets: 2,
      count_by_level: ".",
    });
    expect(top.buckets).toEqual(expected.slice(0, 2));
    expect(top.other_count).toBe(expected.slice(2).reduce((n, b) => n + b.count, 0));
  });

  it("counts only the services the query holds for with filter_by_query", async () => {
    const hosts = await hostFacts();
    const ssh = hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH"));
    const sshServices = ssh.flatMap((h) => h.doc.services.filter((s) => s.service_name === "SSH"));
    // Not every port of an SSH host is an SSH port, or the filter would change nothing here.
    expect(ssh.reduce((n, h) => n + h.doc.services.length, 0)).toBeGreaterThan(sshServices.length);
    const body = {
      query: "host.services.protocol=SSH",
      field: "host.services.port",
      number_of_buckets: 1000,
      filter_by_query: true,
    };
    const services = await aggregate(body);
    expect(services.buckets).toEqual(tally(sshServices.map((s) => String(s.port))));
    expect(services.total_count).toBe(ssh.length);
    expect(services.other_count).toBe(0);
    expect(services.is_more_than_total_hits).toBe(sshServices.length > ssh.length);
    expect(await aggregate({ ...body, count_by_level: "host.services" })).toMatchObject({
      buckets: services.buckets,
    });
    // By host: each SSH host once per port of its SSH services.
    const byHost = await aggregate({ ...body, count_by_level: "." });
    expect(byHost.buckets).toEqual(
      tally(
        ssh.flatMap((h) => [
          ...new Set(h.doc.services.filter((s) => s.service_name === "SSH").map((s) => String(s.port))),
        ]),
      ),
    );
    expect(byHost.total_count).toBe(ssh.length);
  });

  it("reads the whole query on each service: nested groups, negations and the host's own fields", async () => {
    const hosts = await hostFacts();
    const count = async (query: string) =>
      (
        await aggregate({
          query,
          field: "host.services.port",
          number_of_buckets: 1000,
          filter_by_query: true,
        })
      ).buckets;
    const tallyOf = (
      hostTest: (h: (typeof hosts)[number]) => boolean,
      serviceTest: (s: (typeof hosts)[number]["doc"]["services"][number]) => boolean,
    ) =>
      tally(
        hosts.filter(hostTest).flatMap((h) => h.doc.services.filter(serviceTest).map((s) => String(s.port))),
      );
    // One service, HTTP and not on port 80.
    const grouped = await count("host.services: (protocol: HTTP and not port: 80)");
    expect(grouped.length).toBeGreaterThan(0);
    expect(grouped).toEqual(
      tallyOf(
        (h) => h.doc.services.some((s) => s.service_name === "HTTP" && s.port !== 80),
        (s) => s.service_name === "HTTP" && s.port !== 80,
      ),
    );
    // A host-level condition keeps every service of the hosts it holds for.
    const country = hosts.find((h) => h.doc.location?.country)!.doc.location!.country!;
    expect(await count(`host.location.country: "${country}" and host.services.port: 443`)).toEqual(
      tallyOf(
        (h) => h.doc.location?.country === country && h.doc.services.some((s) => s.port === 443),
        (s) => s.port === 443,
      ),
    );
    expect(await count(`host.location.country: "${country}"`)).toEqual(
      tallyOf(
        (h) => h.doc.location?.country === country,
        () => true,
      ),
    );
  });

  it("counts and filters a service field the catalogue stores as a leaf the same way", async () => {
    const hosts = await hostFacts();
    type Service = { port: number; dns?: { server_type?: string } };
    const services = (h: (typeof hosts)[number]) => h.doc.services as unknown as Service[];
    const typeOf = (s: Service) => s.dns?.server_type;
    const matches = (s: Service) => typeOf(s)?.toUpperCase() === "FORWARDING" || s.port === 22;
    const matching = hosts.filter((h) => services(h).some(matches));
    const body = {
      query: "host.services.dns.server_type: FORWARDING or host.services.port: 22",
      field: "host.services.dns.server_type",
      number_of_buckets: 1000,
    };
    const typesOf = (h: (typeof hosts)[number], test: (s: Service) => boolean) =>
      services(h).flatMap((s) => (test(s) && typeOf(s) !== undefined ? [typeOf(s)!] : []));
    const all = await aggregate(body);
    expect(all.buckets).toEqual(tally(matching.flatMap((h) => typesOf(h, () => true))));
    const filtered = await aggregate({ ...body, filter_by_query: true });
    expect(filtered.buckets).toEqual(tally(matching.flatMap((h) => typesOf(h, matches))));
    // The filter matters here: the hosts matched by port 22 have DNS services of other types.
    expect(filtered.buckets).not.toEqual(all.buckets);
    const byHost = await aggregate({ ...body, count_by_level: "." });
    expect(byHost.buckets).toEqual(tally(matching.flatMap((h) => [...new Set(typesOf(h, () => true))])));
    expect(byHost.total_count).toBe(matching.length);
  });

  it("leaves a root field's counts as they are with filter_by_query", async () => {
    const body = {
      query: "host.services.protocol: SSH",
      field: "host.location.country",
      number_of_buckets: 50,
    };
    const plain = await aggregate(body);
    const filtered = await aggregate({ ...body, filter_by_query: true });
    expect(filtered.buckets).toEqual(plain.buckets);
    expect(filtered.total_count).toBe(plain.total_count);
    expect(filtered.other_count).toBe(plain.other_count);
  });

  it("refuses levels a field cannot be counted by, unknown fields, mixed resources and bad queries with 400 problems", async () => {
    const cases: [Record<string, unknown>, string][] = [
      // A root field has no nested level to count by.
      [
        { query: "", field: "host.location.country", number_of_buckets: 5, count_by_level: "host.services" },
        "body.count_by_level",
      ],
      [
        {
          query: "",
          field: "host.services.port",
          number_of_buckets: 5,
          count_by_level: "host.services.port",
        },
        "body.count_by_level",
      ],
      [
        { query: "", field: "host.services.port", number_of_buckets: 5, count_by_level: "cert" },
        "body.count_by_level",
      ],
      [
        { query: "", field: "host.services.port", number_of_buckets: 5, count_by_level: "host.nope" },
        "body.count_by_level",
      ],
      [{ query: "", field: "host.nope", number_of_buckets: 5 }, "body.field"],
      [{ query: "cert.names: x", field: "host.services.port", number_of_buckets: 5 }, "body.field"],
      [{ query: "host.services.port: (", field: "host.services.port", number_of_buckets: 5 }, "body.query"],
      [{ query: "", field: "host.services.port", number_of_buckets: 0 }, "body.number_of_buckets"],
      [
        { query: "", field: "host.services.port", number_of_buckets: 5, filter_by_query: "yes" },
        "body.filter_by_query",
      ],
      [
        { query: "", field: "host.services.port", number_of_buckets: 5, count_by_level: 1 },
        "body.count_by_level",
      ],
    ];
    for (const [body, location] of cases) {
      const { res } = await v3Post("/v3/global/search/aggregate", body);
      const problem = await expectProblem(res, 400);
      expect(problem.errors?.[0]?.location, JSON.stringify(body)).toBe(location);
    }
    const { res } = await v3Post("/v3/global/search/aggregate", cases[0]![0]);
    const problem = await expectProblem(res, 400);
    expect(problem.detail).toContain('use one of "", ".", "host"');
  });

  it("refuses a filter_by_query whose query binds more values than a filtered count can, naming the query", async () => {
    // The query runs twice in one statement (the hosts, then each service): half the values each.
    const ports = Array.from({ length: 50 }, (_, i) => 1000 + i).join(", ");
    const query = `host.services.port: {${ports}}`;
    const base = { query, field: "host.services.port", number_of_buckets: 5 };
    expect((await v3Post("/v3/global/search/aggregate", base)).res.status).toBe(200);
    const { res } = await v3Post("/v3/global/search/aggregate", { ...base, filter_by_query: true });
    const problem = await expectProblem(res, 400);
    expect(problem.errors?.[0]?.location).toBe("body.query");
    expect(problem.detail).toContain("too many values");
  });

  it("charges 1 credit per call", async () => {
    const org = platformAccount().organization_id;
    await aggregate({ query: "", field: "host.services.port", number_of_buckets: 2 });
    const before = await balanceOf(org);
    await aggregate({ query: "", field: "host.services.port", number_of_buckets: 2 });
    expect(await balanceOf(org)).toBe(before! - 1);
  });
});

describe("POST /v3/global/search/convert", () => {
  async function convert(queries: string[]) {
    const { res, body } = await v3Post("/v3/global/search/convert", { queries });
    expect(res.status).toBe(200);
    return convertEnvelope.parse(body).result;
  }

  it("converts good queries, keeps errors per query, and answers in order", async () => {
    const result = await convert([
      "services.port: 22",
      "same_service(port: 22 and service_name: SSH)",
      "services.port: (",
      "nginx",
    ]);
    expect(result.map((r) => r.original_query)).toEqual([
      "services.port: 22",
      "same_service(port: 22 and service_name: SSH)",
      "services.port: (",
      "nginx",
    ]);
    expect(result[0]).toMatchObject({
      converted_query: "host.services.port: 22",
      targets: ["host"],
      errors: [],
    });
    expect(result[1]).toMatchObject({
      converted_query: "host.services: (port: 22 and protocol: SSH)",
      targets: ["host"],
      errors: [],
    });
    expect(result[2]!.converted_query).toBeUndefined();
    expect(result[2]!.errors[0]!.message).toMatch(/at position \d+/);
    expect(result[3]).toMatchObject({ converted_query: "nginx", targets: [], errors: [] });
  });

  it("converts to queries the search runs with the same hits", async () => {
    const [converted] = await convert(["services.service_name: SSH"]);
    const page = await query({ query: converted!.converted_query!, page_size: 100 });
    const hosts = await hostFacts();
    expect(page.total_hits).toBe(
      hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH")).length,
    );
  });

  it("refuses an empty list and more than the limit", async () => {
    for (const queries of [[], Array.from({ length: V3_CONVERT_QUERIES_MAX + 1 }, () => "x")]) {
      const { res } = await v3Post("/v3/global/search/convert", { queries });
      expect((await expectProblem(res, 400)).errors?.[0]?.location).toBe("body.queries");
    }
    const result = await convert(
      Array.from({ length: V3_CONVERT_QUERIES_MAX }, (_, i) => `services.port: ${i}`),
    );
    expect(result.length).toBe(V3_CONVERT_QUERIES_MAX);
  });

  it("charges 1 credit per call and requires the token", async () => {
    const org = platformAccount().organization_id;
    await convert(["x"]);
    const before = await balanceOf(org);
    await convert(["x", "y"]);
    expect(await balanceOf(org)).toBe(before! - 1);
    const { res } = await v3Post("/v3/global/search/convert", { queries: ["x"] }, { token: null });
    await expectProblem(res, 401);
  });
});
