import type { Database } from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compileSearch } from "../src/index";
import { NOW, matching, openFixtureDb, rows } from "./fixture-db";
import { hostsRegistry } from "./registries";

// Compiled SQL run against a real SQLite: which of the hosts A-E each query matches.
// A 1.2.3.4     Germany/Berlin   services 22/HTTP, 80/SSH      tags web      updated 2h ago
// B 1.2.3.10    Germany/Munich   services 22/SSH               tags db, web  updated 3d ago, tor exit
// C 10.0.0.1    United States    services 443/HTTP(TLS), 80/HTTP             updated 2020-01-15
// D 8.8.8.8     (no location)    no services                   tags dns      updated 2019-12-31T23:59:59.999Z
// E 192.168.1.1 France/Paris     services 53/DNS, 22/SSH       tags db       updated 10d ago
let db: Database;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe("execution: nested service scoping", () => {
  it("services: (...) needs one service with both properties; A has port 22 HTTP and port 80 SSH", () => {
    expect(matching(db, "services: (port: 22 and service_name: SSH)")).toBe("BE");
  });

  it("separate services.* conditions may be met by different services of a host", () => {
    expect(matching(db, "services.port: 22 and services.service_name: SSH")).toBe("ABE");
  });

  it("same_service(...) is the same as services: (...)", () => {
    expect(matching(db, "same_service(port: 22 and service_name: SSH)")).toBe("BE");
    expect(matching(db, "same_service(services.port: 22 and services.service_name: SSH)")).toBe("BE");
  });

  it("a negation inside the block applies to that same service", () => {
    expect(matching(db, "services: (port: 22 and not service_name: SSH)")).toBe("A");
  });

  it("a whole block can be negated", () => {
    expect(matching(db, "not services: (port: 22 and service_name: SSH)")).toBe("ACD");
  });
});

describe("execution: fields of each type and storage", () => {
  const CASES: [string, string][] = [
    ["*", "ABCDE"],
    ["", "ABCDE"],
    ["ip: 1.2.3.0/24", "AB"],
    ["ip: [1.2.3.5 TO 1.2.3.255]", "B"],
    ["ip: {1.2.3.4 TO 1.2.3.10]", "B"],
    ["ip: 8.8.8.8", "D"],
    ["ip: {1.2.3.4, 8.8.8.8}", "AD"],
    ["location.country: germany", "AB"],
    ["location.country = Germany", "AB"],
    ["location.country = germany", ""],
    ["not location.country: Germany", "CDE"],
    ["location.country: *", "ABCE"],
    ["location.city: m*", "BC"],
    ["location.city = M*", "BC"],
    ["location.city = m*", ""],
    ["autonomous_system.asn > 10000", "CDE"],
    ["autonomous_system.asn: [3320 TO 12322]", "ABE"],
    ["location.coordinates.latitude: [40 TO 60]", "ABE"],
    ["tor_exit: true", "B"],
    ["not tor_exit: true", "ACDE"],
    ["last_updated_at >= now-1d", "A"],
    ["last_updated_at: [now-7d/d TO *]", "AB"],
    ["last_updated_at: [2020-01-01 TO 2020-01-31]", "C"],
    ["last_updated_at: 2019", "D"],
    ["last_updated_at < 2020-01-01", "D"],
    ["tags: {web, dns}", "ABD"],
    ["tags: web and not services.port: 80", "B"],
    ["services.port: {22, 443}", "ABCE"],
    ["services.tls.version_selected: *", "C"],
    ["services: *", "ABCE"],
    ["not services: *", "D"],
    ["services.banner: openssh", "AB"],
    ["services.banner: OpenSSH_8*", "A"],
    ["services.service_name: /HTT.*/", "AC"],
    ["services.service_name: /htt.*/", ""],
    ["services.banner: /SSH-2\\.0-Open/", "AB"],
    ["services: (port: 22 and banner: \"'quoted'\")", "E"],
    ['autonomous_system.description: "a French internet service provider based in Paris"', "E"],
    ['autonomous_system.description: "A FRENCH INTERNET SERVICE PROVIDER BASED IN PARIS"', "E"],
    ['location.country: "\'; DROP TABLE hosts; --"', ""],
    ["berlin", "A"],
    ['"telekom ag"', "AB"],
    ["mountain and view", "C"],
  ];

  it.each(CASES)("%j matches hosts %j", (query, expected) => {
    expect(matching(db, query)).toBe(expected);
  });

  it("leaves the tables intact after an injection attempt", () => {
    matching(db, 'tags: "x\'); DROP TABLE host_tags; --"');
    expect(rows(db, { sql: "SELECT count(*) AS n FROM host_tags", params: [] })).toEqual([{ n: 5 }]);
  });
});

describe("execution: dialects", () => {
  const CASES: [string, string, string][] = [
    ["location.city: berlin location.city: paris", "AE", ""],
    ["location.country: germany tags: db", "ABE", "B"],
    ["-tags: web", "CDE", "CDE"],
    ["tags: web -tags: db", "A", "A"],
    ["+location.country: germany location.city: berlin", "AB", "A"],
    ["tags: (web or dns)", "ABD", "ABD"],
    ["location.country: germany OR location.country: france AND tor_exit: true", "AB", "AB"],
    ["(location.country: germany OR location.country: france) AND NOT tor_exit: true", "AE", "AE"],
  ];

  it.each(CASES)("%j matches %j in v1 and %j in v2", (query, v1, v2) => {
    expect(matching(db, query, "v1")).toBe(v1);
    expect(matching(db, query, "v2")).toBe(v2);
  });
});

describe("execution: SQLite answers the compiled forms from indexes", () => {
  function plan(query: string): string {
    const compiled = compileSearch(query, "v2", hostsRegistry, { now: NOW });
    if (!compiled.ok) throw compiled.error;
    const steps = rows(db, {
      sql: `EXPLAIN QUERY PLAN SELECT r.ip FROM hosts r WHERE ${compiled.value.sql}`,
      params: compiled.value.params,
    });
    return steps.map((step) => String(step.detail)).join("\n");
  }

  it.each([
    ["location.country: Germany", "USING INDEX hosts_country (country=?)"],
    ["ip: 1.2.3.0/24", "USING INDEX hosts_ip_num (ip_num>? AND ip_num<?)"],
    ["services.port: 22", "USING INDEX host_services_port (port=?)"],
    ["services: (port: 22 and service_name: SSH)", "host_services"],
    ["tags: web", "SEARCH v USING INDEX host_tags_tag (tag=?)"],
    ["location.city: m*", "USING INDEX hosts_city (city>? AND city<?)"],
    ["location.country = Germany", "USING INDEX hosts_country (country=?)"],
  ])("%j uses %j", (query, expected) => {
    expect(plan(query)).toContain(expected);
  });
});
