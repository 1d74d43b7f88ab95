import { describe, expect, it } from "vitest";
import {
  hostDocumentSchema,
  hostServiceSchema,
  hostViewParamsSchema,
  hostViewQuerySchema,
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  v2Envelope,
  wrapV2,
} from "../src/index";
import { hostDocument, hostService } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("v2 envelope", () => {
  it("wraps a result in {code: 200, status: OK, result}", () => {
    const schema = v2Envelope(hostDocumentSchema);
    const body = wrapV2(hostDocument());
    expect(accepts(schema, body).result.ip).toBe("93.184.216.34");
    rejects(schema, hostDocument());
    rejects(schema, { ...body, code: 201 }, ["code"]);
    rejects(schema, { ...body, status: "ok" }, ["status"]);
  });
});

describe("hosts aggregate", () => {
  it("query parameters need a field and default num_buckets to 50", () => {
    expect(accepts(hostsAggregateQuerySchema, { field: "services.port" })).toEqual({
      field: "services.port",
      num_buckets: 50,
    });
    expect(
      accepts(hostsAggregateQuerySchema, {
        field: "services.port",
        q: "location.country: Japan",
        num_buckets: "1000",
      }),
    ).toMatchObject({
      num_buckets: 1000,
    });
  });

  it("query parameters refuse num_buckets 0, 1001 and non-numbers, and a missing or empty field", () => {
    rejects(hostsAggregateQuerySchema, { field: "f", num_buckets: "0" }, ["num_buckets"]);
    rejects(hostsAggregateQuerySchema, { field: "f", num_buckets: "1001" }, ["num_buckets"]);
    rejects(hostsAggregateQuerySchema, { field: "f", num_buckets: "many" }, ["num_buckets"]);
    rejects(hostsAggregateQuerySchema, {}, ["field"]);
    rejects(hostsAggregateQuerySchema, { field: "" }, ["field"]);
  });

  const result = {
    query: "services.service_name: HTTP",
    field: "services.port",
    total: 1200,
    total_omitted: 40,
    potential_deviation: 0,
    buckets: [
      { key: "443", count: 800 },
      { key: "80", count: 360 },
    ],
  };
  it("result has string bucket keys, total_omitted and potential_deviation", () => {
    accepts(hostsAggregateResultSchema, result);
  });
  it("result refuses numeric keys and a missing total_omitted", () => {
    rejects(hostsAggregateResultSchema, { ...result, buckets: [{ key: 443, count: 1 }] }, [
      "buckets",
      0,
      "key",
    ]);
    const { total_omitted: _t, ...rest } = result;
    rejects(hostsAggregateResultSchema, rest, ["total_omitted"]);
  });
});

describe("host view", () => {
  it("takes an IPv4 or IPv6 address and an optional nanosecond at_time", () => {
    accepts(hostViewParamsSchema, { ip: "93.184.216.34" });
    accepts(hostViewParamsSchema, { ip: "2606:2800:220:1:248:1893:25c8:1946" });
    rejects(hostViewParamsSchema, { ip: "93.184.216.256" }, ["ip"]);
    accepts(hostViewQuerySchema, {});
    accepts(hostViewQuerySchema, { at_time: "2024-01-02T03:04:05.123456789Z" });
    rejects(hostViewQuerySchema, { at_time: "2024-01-02" }, ["at_time"]);
    rejects(hostViewQuerySchema, { at_time: "2024-01-02T03:04:05.1234567891Z" }, ["at_time"]);
  });

  it("host document accepts the spec's fields with http, tls and dns services", () => {
    const doc = accepts(hostDocumentSchema, hostDocument());
    expect(doc.services[0]?.http?.response.headers.Set_Cookie).toEqual(["<REDACTED>"]);
    expect(doc.services[1]?.dns?.server_type).toBe("FORWARDING");
  });

  it("host document without location and autonomous system is accepted", () => {
    const {
      location: _l,
      autonomous_system: _a,
      location_updated_at: _lu,
      autonomous_system_updated_at: _au,
      ...bare
    } = hostDocument();
    accepts(hostDocumentSchema, bare);
  });

  it("host document refuses a bad ip, a missing services list and a string asn", () => {
    rejects(hostDocumentSchema, { ...hostDocument(), ip: "not-an-ip" }, ["ip"]);
    const { services: _s, ...noServices } = hostDocument();
    rejects(hostDocumentSchema, noServices, ["services"]);
    const doc = hostDocument();
    rejects(hostDocumentSchema, { ...doc, autonomous_system: { ...doc.autonomous_system, asn: "15133" } }, [
      "autonomous_system",
      "asn",
    ]);
  });

  it("service refuses a bad observed_at, an out-of-range port and header values that are not arrays", () => {
    rejects(hostServiceSchema, { ...hostService(), observed_at: "2024-01-02 03:04:05" }, ["observed_at"]);
    rejects(hostServiceSchema, { ...hostService(), port: 65536 }, ["port"]);
    const service = hostService();
    service.http.response.headers = { Server: "nginx" } as unknown as typeof service.http.response.headers;
    rejects(hostServiceSchema, service, ["http", "response", "headers", "Server"]);
    rejects(hostServiceSchema, { ...hostService(), certificate: "abc" }, ["certificate"]);
    const { service_name: _n, ...noName } = hostService();
    rejects(hostServiceSchema, noName, ["service_name"]);
  });
});

describe("hosts search", () => {
  it("query parameters default per_page to 50 and accept 0 and 100", () => {
    expect(accepts(hostsSearchQuerySchema, {})).toEqual({ per_page: 50 });
    expect(accepts(hostsSearchQuerySchema, { per_page: "0" }).per_page).toBe(0);
    expect(
      accepts(hostsSearchQuerySchema, { per_page: "100", q: "services.port: 22", cursor: "abc" }),
    ).toEqual({
      per_page: 100,
      q: "services.port: 22",
      cursor: "abc",
    });
  });

  it("query parameters refuse per_page 101, -1 and 2.5", () => {
    rejects(hostsSearchQuerySchema, { per_page: "101" }, ["per_page"]);
    rejects(hostsSearchQuerySchema, { per_page: "-1" }, ["per_page"]);
    rejects(hostsSearchQuerySchema, { per_page: "2.5" }, ["per_page"]);
  });

  it("fields may be one value, repeated, or comma-separated", () => {
    expect(accepts(hostsSearchQuerySchema, { fields: "ip" }).fields).toEqual(["ip"]);
    expect(
      accepts(hostsSearchQuerySchema, { fields: ["ip", "location.country,services.port"] }).fields,
    ).toEqual(["ip", "location.country", "services.port"]);
  });

  const result = {
    query: "services.port: 443",
    total: 2,
    hits: [
      {
        ip: "93.184.216.34",
        services: [{ port: 443, service_name: "HTTP", transport_protocol: "TCP" }],
        location: { country: "United States", coordinates: { latitude: 34.05, longitude: -118.24 } },
        autonomous_system: { asn: 15133, name: "EDGECAST" },
        last_updated_at: "2024-01-02T03:04:05.123Z",
      },
      { ip: "2001:db8::1", services: [{ port: 443, service_name: "HTTP" }] },
    ],
    links: { prev: "", next: "eyJwYWdlIjoyfQ.sig" },
  };
  it("result accepts hits and links with empty strings at the ends", () => {
    accepts(hostsSearchResultSchema, result);
  });
  it("result refuses null links, a missing links object and a hit without its ip", () => {
    rejects(hostsSearchResultSchema, { ...result, links: { prev: null, next: "" } }, ["links", "prev"]);
    const { links: _l, ...noLinks } = result;
    rejects(hostsSearchResultSchema, noLinks, ["links"]);
    rejects(hostsSearchResultSchema, { ...result, hits: [{ services: [] }] }, ["hits", 0, "ip"]);
  });

  it("result takes a hit of only the fields asked for (`fields=`): no services then", () => {
    expect(hostsSearchResultSchema.safeParse({ ...result, hits: [{ ip: "1.2.3.4" }] }).success).toBe(true);
  });
});
