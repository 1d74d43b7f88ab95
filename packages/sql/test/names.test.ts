import { describe, expect, it } from "vitest";
import { prepare, refusal, rowsOf, run } from "./fixture";

const T = "ipv4.20261031";

describe("tables", () => {
  it("resolves a table through the catalog, case-insensitively, and lists it in the plan", () => {
    expect(prepare("SELECT ip FROM [IPV4.20261031]").tables.map((t) => t.name)).toEqual(["ipv4.20261031"]);
    expect(prepare("SELECT ip FROM ipv4").tables.map((t) => t.name)).toEqual(["ipv4.20261031"]);
  });

  it("refuses an unknown table at its position", () => {
    expect(refusal("SELECT ip FROM ipv4.19990101")).toBe("Not found: Table ipv4.19990101 at [1:16]");
  });
});

describe("column names", () => {
  it("match case-insensitively, qualified by an alias or by the table's own name", async () => {
    expect(await rowsOf(`SELECT IP, Location.Country FROM ${T} WHERE ip = '1.1.1.1'`)).toEqual([
      ["1.1.1.1", "US"],
    ]);
    expect(await rowsOf(`SELECT a.ip, a.location.country FROM ${T} a WHERE a.ip = '1.1.1.1'`)).toEqual([
      ["1.1.1.1", "US"],
    ]);
    expect(await rowsOf(`SELECT ipv4.20261031.ip FROM ${T} WHERE ip = '1.1.1.1'`)).toEqual([["1.1.1.1"]]);
    expect(await rowsOf(`SELECT \`location.country\` FROM ${T} WHERE ip = '1.1.1.1'`)).toEqual([["US"]]);
  });

  it("refuses an unknown name at its position rather than reading it as a constant", () => {
    expect(refusal(`SELECT nosuchcol FROM ${T}`)).toBe("Unrecognized name: nosuchcol at [1:8]");
    expect(refusal(`SELECT ip FROM ${T} a WHERE a.nosuch = 1`)).toBe("Unrecognized name: a.nosuch at [1:38]");
    expect(refusal(`SELECT location.nosuch FROM ${T}`)).toBe("Unrecognized name: location.nosuch at [1:8]");
  });

  it("refuses a name two joined tables both have", () => {
    expect(refusal(`SELECT ip FROM ${T} a JOIN ${T} b ON a.ip = b.ip`)).toBe(
      "Column name ip is ambiguous at [1:8]",
    );
  });

  it("asks for the fields when a record itself is selected", () => {
    expect(refusal(`SELECT services FROM ${T}`)).toBe(
      "Cannot select the record services itself; name its fields, for example services.port at [1:8]",
    );
    expect(refusal(`SELECT location FROM ${T}`)).toBe(
      "Cannot select the record location itself; name its fields, for example location.country at [1:8]",
    );
  });

  it("select-list aliases are usable in GROUP BY, HAVING and ORDER BY", async () => {
    expect(
      await rowsOf(
        `SELECT location.country AS c, COUNT(*) AS n FROM ${T} GROUP BY c HAVING n > 1 ORDER BY c DESC`,
      ),
    ).toEqual([
      ["US", 2],
      ["DE", 2],
    ]);
    expect(await rowsOf(`SELECT ip AS address FROM ${T} ORDER BY address DESC LIMIT 1`)).toEqual([
      ["8.8.8.8"],
    ]);
  });
});

describe("result columns", () => {
  it("name a plain field by its path with underscores, an alias as written, expressions f0_, f1_, ...", async () => {
    const answer = await run(
      `SELECT COUNT(*), location.country, COUNT(ip) AS hosts, MAX(ip) FROM ${T} GROUP BY 2`,
    );
    expect(answer.columns.map((c) => c.name)).toEqual(["f0_", "location_country", "hosts", "f1_"]);
  });

  it("suffix duplicate names with _1, _2", async () => {
    const answer = await run(`SELECT ip, ip, a.ip FROM ${T} a LIMIT 1`);
    expect(answer.columns.map((c) => c.name)).toEqual(["ip", "ip_1", "ip_2"]);
  });

  it("carry the field's type, or the function's result type, and REPEATED for arrays", async () => {
    const grouped = await run(
      `SELECT autonomous_system.asn, AVG(autonomous_system.asn), SUM(autonomous_system.asn), COUNT(*) FROM ${T} GROUP BY 1`,
    );
    expect(grouped.columns.map((c) => c.type)).toEqual(["INTEGER", "FLOAT", "INTEGER", "INTEGER"]);
    const plain = await run(`SELECT last_updated_at, SPLIT(ip, '.'), 1.5, 2, 'x', ip = 'y', NULL FROM ${T}`);
    expect(plain.columns.map((c) => `${c.type}:${c.mode}`)).toEqual([
      "TIMESTAMP:NULLABLE",
      "STRING:REPEATED",
      "FLOAT:NULLABLE",
      "INTEGER:NULLABLE",
      "STRING:NULLABLE",
      "BOOLEAN:NULLABLE",
      "STRING:NULLABLE",
    ]);
  });

  it("render TIMESTAMP as ISO 8601 UTC text, NULL as null, arrays as arrays", async () => {
    expect(
      await rowsOf(
        `SELECT last_updated_at, autonomous_system.asn, SPLIT(ip, '.') FROM ${T} WHERE ip IN ('1.1.1.1', '10.0.0.2')`,
      ),
    ).toEqual([
      ["2026-10-31T10:00:00.000Z", 13335, ["1", "1", "1", "1"]],
      [null, null, ["10", "0", "0", "2"]],
    ]);
  });
});

describe("SELECT *", () => {
  it("expands to every field: repeated top-level fields as arrays, the one record's fields flattened", async () => {
    const answer = await run(`SELECT * FROM ${T} WHERE ip = '8.8.8.8'`);
    expect(answer.columns.map((c) => `${c.name}:${c.mode}`)).toEqual([
      "ip:NULLABLE",
      "location_country:NULLABLE",
      "location_city:NULLABLE",
      "autonomous_system_asn:NULLABLE",
      "autonomous_system_name:NULLABLE",
      "last_updated_at:NULLABLE",
      "protocols:REPEATED",
      "services_port:NULLABLE",
      "services_service_name:NULLABLE",
      "services_transport_protocol:NULLABLE",
      "services_tls_certificate_names:REPEATED",
    ]);
    expect(answer.rows.map((r) => [r[6], r[7]])).toEqual([
      [["53/dns", "443/https"], 53],
      [["53/dns", "443/https"], 443],
    ]);
  });

  it("alias.* expands one table; a table with two repeated records is refused", async () => {
    expect((await run("SELECT c.* FROM certificates.20261031 c LIMIT 1")).columns.map((c) => c.name)).toEqual(
      [
        "fingerprint_sha256",
        "parsed_subject_dn",
        "parsed_names",
        "parsed_validity_start",
        "validation_nss_valid",
      ],
    );
    expect(refusal("SELECT * FROM websites.20261031")).toBe(
      "SELECT * over websites.20261031 would flatten its repeated records endpoints and dns_records together; name the fields you want at [1:8]",
    );
  });
});
