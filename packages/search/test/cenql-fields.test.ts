import { describe, expect, it } from "vitest";
import {
  CENQL_RESOURCES,
  cenqlAggregateField,
  cenqlCountLevels,
  cenqlField,
  cenqlPath,
  cenqlTarget,
  cenqlTargets,
  compileCenqlSearch,
  compileSearch,
  legacyFieldNames,
  parseQuery,
  type CenqlRegistries,
  type CenqlTargetOptions,
  type IndexRegistry,
} from "../src/index";
import { certificatesRegistry, hostsRegistry } from "./registries";
import { showQuery } from "./show-query";

const websitesRegistry: IndexRegistry = {
  name: "websites",
  root: { table: "websites", key: "domain" },
  scopes: {},
  fields: {
    domain: { type: "keyword", storage: { kind: "column", column: "domain" } },
    "443.https.get.status_code": { type: "integer", storage: { kind: "column", column: "status_443" } },
    "80.http.get.status_code": { type: "integer", storage: { kind: "column", column: "status_80" } },
  },
};
const REGISTRIES: CenqlRegistries = {
  host: hostsRegistry,
  cert: certificatesRegistry,
  web: websitesRegistry,
};

function target(input: string, options?: CenqlTargetOptions): string {
  const parsed = parseQuery(input, "cenql");
  if (!parsed.ok) throw parsed.error;
  const targeted = cenqlTarget(parsed.value, options);
  if (!targeted.ok) throw targeted.error;
  return `${targeted.value.resource} ${showQuery(targeted.value.node)}`;
}

function targetError(input: string): { message: string; position: number; token: string } {
  const parsed = parseQuery(input, "cenql");
  if (!parsed.ok) throw parsed.error;
  const targeted = cenqlTarget(parsed.value);
  if (targeted.ok) throw new Error(`expected ${input} to be refused`);
  return targeted.error;
}

describe("the CenQL field table", () => {
  const RENAMES: [string, string][] = [
    ["host.services.protocol", "services.service_name"],
    ["host.services.cert.fingerprint_sha256", "services.certificate"],
    ["host.services.scan_time", "services.observed_at"],
    ["host.services.endpoints.http.status_code", "services.http.response.status_code"],
    ["host.services.endpoints.http.headers.server", "services.http.response.headers.server"],
    ["host.services.port", "services.port"],
    ["host.location.country", "location.country"],
    ["host.autonomous_system.bgp_prefix", "autonomous_system.bgp_prefix"],
    ["cert.fingerprint_sha256", "parsed.fingerprint_sha256"],
    ["cert.names", "parsed.names"],
    ["cert.parsed.validity_period.not_after", "parsed.validity.end"],
    ["cert.parsed.subject.organization", "parsed.subject.organization"],
    ["cert.modified_at", "metadata.updated_at"],
    ["cert.validation.nss.is_valid", "validation.nss.valid"],
    ["cert.validation.chrome.ever_valid", "validation.google_ct_primary.was_valid"],
    ["cert.validation.chrome.type", "validation.google_ct_primary.type"],
    ["web.hostname", "domain"],
    ["web.port", "ports"],
  ];

  it.each(RENAMES)("%s reads the legacy %s, and back", (cenql, legacy) => {
    const [resource = "", ...rest] = cenql.split(".");
    const path = rest.join(".");
    const typed = CENQL_RESOURCES.find((candidate) => candidate === resource);
    if (!typed) throw new Error(resource);
    expect(legacyFieldNames(typed, path)).toEqual([legacy]);
    expect(cenqlPath(typed, legacy)).toBe(path);
  });

  it("still reads a root store's flag by its legacy name", () => {
    expect(legacyFieldNames("cert", "validation.nss.valid")).toEqual(["validation.nss.valid"]);
  });

  it("reads a second legacy name of a value back to the one CenQL name", () => {
    expect(cenqlPath("host", "services.tls.certificates.leaf_fp_sha_256")).toBe(
      "services.cert.fingerprint_sha256",
    );
    expect(cenqlPath("cert", "updated_at")).toBe("modified_at");
  });

  it("expands a web endpoint field to every port of the websites index, TLS fields to TLS ports", () => {
    expect(legacyFieldNames("web", "endpoints.http.status_code")).toEqual([
      "80.http.get.status_code",
      "443.https.get.status_code",
      "8000.http.get.status_code",
      "8080.http.get.status_code",
      "8443.https.get.status_code",
      "8888.http.get.status_code",
    ]);
    expect(legacyFieldNames("web", "tls.version_selected")).toEqual([
      "443.https.tls.version",
      "8443.https.tls.version",
    ]);
    expect(legacyFieldNames("web", "cert.parsed.issuer.organization")).toEqual([
      "443.https.tls.certificate.parsed.issuer.organization",
      "8443.https.tls.certificate.parsed.issuer.organization",
    ]);
    expect(legacyFieldNames("web", "software.vendor")).toHaveLength(6);
    expect(legacyFieldNames("web", "software.vendor")[0]).toBe("80.http.get.metadata.manufacturer");
    expect(legacyFieldNames("web", "endpoints.http.body")[0]).toBe("80.http.get.body");
    expect(legacyFieldNames("web", "jarm.fingerprint")).toEqual([
      "443.https.tls.jarm",
      "8443.https.tls.jarm",
    ]);
    expect(legacyFieldNames("web", "endpoints.http.headers.content_length")[1]).toBe(
      "443.https.get.headers.content_length",
    );
    expect(cenqlPath("web", "443.https.get.title")).toBeNull();
  });
});

describe("cenqlTarget", () => {
  const CASES: [string, string][] = [
    ["host.services.port: 22", "host services.port:22"],
    ["HOST.services.port: 22", "host services.port:22"],
    [
      "host.services: (protocol=SSH and not port: 22)",
      "host (group services (and services.service_name=SSH (not services.port:22)))",
    ],
    [
      "host.services: (host.services.port: 80 and protocol: HTTP)",
      "host (group services (and services.port:80 services.service_name:HTTP))",
    ],
    [
      "host.services: (software: (vendor: a and product: b))",
      "host (group services (and services.software.vendor:a services.software.product:b))",
    ],
    ["host.location: (country: DE or city: Paris)", "host (or location.country:DE location.city:Paris)"],
    [
      "host.services.protocol: (SSH or HTTP)",
      "host (or services.service_name:SSH services.service_name:HTTP)",
    ],
    [
      "host: (location.country: DE and host.services.port: 22)",
      "host (and location.country:DE services.port:22)",
    ],
    ["host.services: *", "host services:exists"],
    ["cert.fingerprint_sha256: abc", "cert parsed.fingerprint_sha256:abc"],
    ["cert.parsed.validity_period.not_after > now", "cert parsed.validity.end:{now TO *]"],
    ["cert: (names: example.com or example)", "cert (or parsed.names:example.com text(example))"],
    ["web.hostname: example.com and web.port: 443", "web (and domain:example.com ports:443)"],
    ["nginx", "host text(nginx)"],
    ['"hello world" and not apache', 'host (and text("hello world") (not text(apache)))'],
    ["", "host *"],
    // the Platform's regexes match anywhere unless anchored; the rewrite anchors explicitly
    ['host.services.banner =~ "SSH"', "host services.banner:/^.*SSH.*$/"],
    ['host.services.banner =~ "^SSH"', "host services.banner:/^SSH.*$/"],
    ['host.services.banner =~ "OpenSSH$"', "host services.banner:/^.*OpenSSH$/"],
    ['host.services.banner =~ "^SSH-2\\\\.0$"', "host services.banner:/^SSH-2\\.0$/"],
  ];

  it.each(CASES)("%j searches %s", (input, expected) => {
    expect(target(input)).toBe(expected);
  });

  it("expands per-port web fields only to the fields the index has, when told which", () => {
    const hasField = (resource: string, field: string): boolean =>
      resource === "web" && field in websitesRegistry.fields;
    expect(target("web.endpoints.http.status_code: 200", { hasField })).toBe(
      "web (or 80.http.get.status_code:200 443.https.get.status_code:200)",
    );
  });

  it("refuses a query mixing resources, pointing at the field that changed resource", () => {
    expect(targetError("host.services.port: 22 and (web.port: 443 or cert.names: x)")).toMatchObject({
      position: 28,
      token: "web.port",
      message:
        'a query searches one resource: "web.port" (web) at position 28 cannot be combined with "host.services.port" (host) at position 0',
    });
    expect(targetError("cert: (example) and host.ip: 1.2.3.4")).toMatchObject({
      position: 20,
      token: "host.ip",
    });
  });

  it("refuses a field without its resource, suggesting the likely one", () => {
    expect(targetError("location.country: DE")).toMatchObject({
      position: 0,
      token: "location.country",
      message: expect.stringContaining('did you mean "host.location.country"?') as string,
    });
    expect(targetError("x and parsed.names: a").message).toContain('"cert.parsed.names"');
    expect(targetError("host: DE").message).toContain("needs a resource prefix");
  });

  it("refuses a bare term directly inside a scope", () => {
    expect(targetError("host.services: (SSH)")).toMatchObject({ position: 16, token: "SSH" });
  });
});

describe("cenqlTargets", () => {
  it.each([
    ["host.services.port: 22 and nginx", ["host"]],
    ["cert: (example)", ["cert"]],
    ["web.port: 443", ["web"]],
    ["nginx and not apache", []],
    ["", []],
  ])("%j targets %j", (query, expected) => {
    const parsed = parseQuery(query, "cenql");
    if (!parsed.ok) throw parsed.error;
    expect(cenqlTargets(parsed.value)).toEqual({ ok: true, value: expected });
  });

  it("lists every resource a query spanning several names, hosts first", () => {
    const parsed = parseQuery("web.port: 80 or host.ip: 1.2.3.4", "cenql");
    if (!parsed.ok) throw parsed.error;
    expect(cenqlTargets(parsed.value)).toEqual({ ok: true, value: ["host", "web"] });
  });
});

describe("cenqlField", () => {
  it("maps an aggregate's field to its resource and legacy field", () => {
    expect(cenqlField("host.services.protocol")).toEqual({
      ok: true,
      value: { resource: "host", field: "services.service_name" },
    });
    expect(cenqlField(" cert.names ")).toEqual({
      ok: true,
      value: { resource: "cert", field: "parsed.names" },
    });
  });

  it("refuses a field without a resource or one spread over ports", () => {
    const missing = cenqlField("services.port");
    expect(missing.ok || missing.error.message).toMatch(/needs a resource prefix.*"host\.services\.port"/);
    const spread = cenqlField("web.endpoints.http.status_code");
    expect(spread.ok || spread.error.message).toMatch(/cannot be aggregated/);
  });

  it("checks the field against the registry, suggesting the nearest CenQL name", () => {
    expect(cenqlAggregateField("host.services.protocol", REGISTRIES)).toEqual({
      ok: true,
      value: { resource: "host", field: "services.service_name", scope: "services", level: "host.services" },
    });
    const unknown = cenqlAggregateField("host.services.protocl", REGISTRIES);
    expect(unknown.ok || unknown.error.message).toBe(
      'unknown field "host.services.protocl"; did you mean "host.services.protocol"?',
    );
  });

  it("names a root field's level null, and lists the count_by_level values each field takes", () => {
    const country = cenqlAggregateField("host.location.country", REGISTRIES);
    const names = cenqlAggregateField("cert.names", REGISTRIES);
    const port = cenqlAggregateField("host.services.port", REGISTRIES);
    if (!country.ok || !names.ok || !port.ok) throw new Error("fields should map");
    expect(country.value).toMatchObject({ scope: null, level: null });
    expect([...cenqlCountLevels(country.value)]).toEqual([
      ["", "document"],
      [".", "document"],
      ["host", "document"],
    ]);
    expect([...cenqlCountLevels(names.value)]).toEqual([
      ["", "document"],
      [".", "document"],
      ["cert", "document"],
    ]);
    // A service field counts services by default, hosts by the root level.
    expect([...cenqlCountLevels(port.value)]).toEqual([
      ["", "scope"],
      [".", "document"],
      ["host", "document"],
      ["host.services", "scope"],
    ]);
  });
});

describe("compileCenqlSearch", () => {
  it("compiles onto the resource's registry the same SQL as the legacy query", () => {
    const cenql = compileCenqlSearch("host.services: (protocol: SSH and port: 22)", REGISTRIES);
    const legacy = compileSearch("services: (service_name: SSH and port: 22)", "v2", hostsRegistry);
    const where = legacy.ok && legacy.value;
    expect(cenql).toEqual({
      ok: true,
      value: { resource: "host", where, parts: [{ resource: "host", where }] },
    });
    expect(cenql.ok && cenql.value.where.params).toEqual(["SSH", 22]);
  });

  it("reads a query spanning resources once per resource, the other's conditions matching nothing", () => {
    const spanning = compileCenqlSearch(
      'host.services.banner = "Sliver" or cert.parsed.subject_dn: "Sliver"',
      REGISTRIES,
    );
    if (!spanning.ok) throw spanning.error;
    const host = compileSearch('services.banner = "Sliver"', "v2", hostsRegistry);
    const cert = compileSearch('parsed.subject_dn: "Sliver"', "v2", certificatesRegistry);
    expect(spanning.value.parts).toEqual([
      { resource: "host", where: host.ok && host.value },
      { resource: "cert", where: cert.ok && cert.value },
    ]);
    const both = compileCenqlSearch("host.ip: 1.2.3.4 and cert.parsed.subject_dn: x", REGISTRIES);
    expect(both.ok && both.value.parts.map((part) => part.where.sql)).toEqual(["0", "0"]);
  });

  it("pins a service row only in the parts whose resource has services", () => {
    const pinned = compileCenqlSearch(
      'host.services.port: 22 or cert.parsed.subject_dn: "Sliver"',
      REGISTRIES,
      {
        scopeRow: { scope: "services", alias: "m" },
      },
    );
    if (!pinned.ok) throw pinned.error;
    const cert = compileSearch('parsed.subject_dn: "Sliver"', "v2", certificatesRegistry);
    expect(pinned.value.parts[0]?.where.sql).toBe("m.port = ?");
    expect(pinned.value.parts[1]).toEqual({ resource: "cert", where: cert.ok && cert.value });
  });

  it("names an unknown field of any resource a spanning query reads", () => {
    const result = compileCenqlSearch("host.ip: 1.2.3.4 or cert.parsed.subjct_dn: x", REGISTRIES);
    expect(result.ok || result.error.message).toMatch(/^unknown field "cert\.parsed\.subjct_dn"/);
  });

  it("compileSearch takes CenQL for the registry of the resource the query searches", () => {
    const cenql = compileSearch("host.services.protocol: SSH", "cenql", hostsRegistry);
    expect(cenql).toEqual(compileSearch("services.service_name: SSH", "v2", hostsRegistry));
    const other = compileSearch("cert.names: example.com", "cenql", hostsRegistry);
    expect(other.ok || other.error.message).toBe(
      "this query searches cert records (the certificates index), not hosts",
    );
  });

  it("names an unknown field by its CenQL name, with the nearest one", () => {
    const result = compileCenqlSearch("host.services: (port: 22 and protocl: SSH)", REGISTRIES);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      position: 29,
      token: "host.services.protocl",
      message: 'unknown field "host.services.protocl" at position 29; did you mean "host.services.protocol"?',
    });
  });

  it("names a field written relative to its group by its full CenQL name", () => {
    const result = compileCenqlSearch("host.services: (endpoints.http.status_cod: 200)", REGISTRIES);
    expect(result.ok || result.error).toMatchObject({
      position: 16,
      token: "host.services.endpoints.http.status_cod",
    });
  });

  it.each(["host.toString: x", "host.constructor: (port: 22)", "host.__proto__.x: 1", "cert: (valueOf: 1)"])(
    "%j names no field or scope (prototype names are not table entries)",
    (query) => {
      const result = compileCenqlSearch(query, REGISTRIES);
      expect(result.ok || result.error.message).toMatch(/^unknown field/);
    },
  );

  it("refuses characters the database cannot bind before parsing", () => {
    const result = compileCenqlSearch("host.location.city: a\u0000b", REGISTRIES);
    expect(result.ok || result.error).toMatchObject({ position: 21, token: "\u0000" });
  });
});
