import { describe, expect, it } from "vitest";
import { refusal, rowsOf, run } from "./fixture";

const T = "ipv4.20261031";

describe("conditions on repeated fields that are not selected", () => {
  it("a condition on a repeated record matches one element with every field", async () => {
    // 192.168.1.1 has port 22 (SSH) and port 443 (HTTP), but no single service with both.
    expect(
      await rowsOf(`SELECT ip FROM ${T} WHERE services.port = 22 AND services.service_name = 'HTTP'`),
    ).toEqual([]);
    expect(
      await rowsOf(`SELECT ip FROM ${T} WHERE services.port = 443 AND services.service_name = 'HTTP'`),
    ).toEqual([["1.1.1.1"], ["8.8.8.8"], ["192.168.1.1"]]);
  });

  it("returns each host once however many of its elements match", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.service_name = 'HTTP'`)).toEqual([
      ["1.1.1.1"],
      ["8.8.8.8"],
      ["192.168.1.1"],
      ["203.0.113.5"],
    ]);
    expect((await rowsOf(`SELECT COUNT(*) FROM ${T} WHERE services.port > 0`))[0]).toEqual([5]);
  });

  it("treats an empty group as one element whose fields are NULL", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.port IS NULL`)).toEqual([["10.0.0.2"]]);
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.port = 22 OR ip = '10.0.0.2'`)).toEqual([
      ["10.0.0.1"],
      ["10.0.0.2"],
      ["192.168.1.1"],
    ]);
  });

  it("NOT applies per element: some element does not match", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE NOT services.port = 22`)).toEqual([
      ["1.1.1.1"],
      ["8.8.8.8"],
      ["192.168.1.1"],
      ["203.0.113.5"],
    ]);
  });

  it("quantifies conditions on different groups separately", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.port = 443 AND protocols = '22/ssh'`)).toEqual([
      ["192.168.1.1"],
    ]);
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.port = 53 OR protocols = '22/ssh'`)).toEqual([
      ["8.8.8.8"],
      ["10.0.0.1"],
      ["192.168.1.1"],
    ]);
  });

  it("refuses one expression over two groups, which only their cross product could answer", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE CONCAT(protocols, services.service_name) = 'x'`)).toBe(
      "Cannot query the cross product of repeated fields protocols and services at [1:36]",
    );
  });

  it("a nested repeated field matches when any of its values does, within the same element", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE services.tls.certificate.names = 'dns.google'`)).toEqual([
      ["8.8.8.8"],
    ]);
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE services.tls.certificate.names LIKE '%.jp' AND services.port = 8080`,
      ),
    ).toEqual([["203.0.113.5"]]);
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE services.port = 80 AND services.tls.certificate.names = 'one.one.one.one'`,
      ),
    ).toEqual([]);
  });

  it("a top-level repeated field matches existentially in WHERE", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE protocols = '22/ssh'`)).toEqual([
      ["10.0.0.1"],
      ["192.168.1.1"],
    ]);
    expect(
      await rowsOf("SELECT fingerprint_sha256 FROM certificates.20261031 WHERE parsed.names LIKE 'www.%'"),
    ).toEqual([["cc33"]]);
  });
});

describe("flattening what the query selects", () => {
  it("selecting a record field gives one row per element, and one NULL row for an empty record", async () => {
    const answer = await run(`SELECT ip, services.port FROM ${T}`);
    expect(answer.columns.map((c) => c.name)).toEqual(["ip", "services_port"]);
    expect(answer.rows).toEqual([
      ["1.1.1.1", 443],
      ["1.1.1.1", 80],
      ["8.8.8.8", 53],
      ["8.8.8.8", 443],
      ["10.0.0.1", 22],
      ["10.0.0.2", null],
      ["192.168.1.1", 22],
      ["192.168.1.1", 443],
      ["203.0.113.5", 8080],
    ]);
  });

  it("WHERE filters the element rows of a flattened group", async () => {
    expect(await rowsOf(`SELECT ip, services.port FROM ${T} WHERE services.service_name = 'SSH'`)).toEqual([
      ["10.0.0.1", 22],
      ["192.168.1.1", 22],
    ]);
  });

  it("aggregates over a record field count its elements", async () => {
    expect(
      await rowsOf(`SELECT COUNT(*), COUNT(services.port), COUNT(DISTINCT services.port) FROM ${T}`),
    ).toEqual([[9, 8, 5]]);
  });

  it("GROUP BY and ORDER BY a record field flatten it", async () => {
    expect(
      await rowsOf(`SELECT services.service_name, COUNT(*) FROM ${T} GROUP BY 1 ORDER BY 2 DESC, 1`),
    ).toEqual([
      ["HTTP", 5],
      ["SSH", 2],
      [null, 1],
      ["DNS", 1],
    ]);
    expect(
      (await rowsOf(`SELECT ip FROM ${T} ORDER BY services.port DESC LIMIT 2`)).map((r) => r[0]),
    ).toEqual(["203.0.113.5", "1.1.1.1"]);
  });

  it("a selected top-level repeated field is flattened; ARRAY_LENGTH reads the whole array", async () => {
    expect(await rowsOf(`SELECT ip, protocols FROM ${T} WHERE ip = '1.1.1.1'`)).toEqual([
      ["1.1.1.1", "443/https"],
      ["1.1.1.1", "80/http"],
    ]);
    expect(
      await rowsOf(`SELECT ip, ARRAY_LENGTH(protocols) FROM ${T} WHERE ip IN ('1.1.1.1', '10.0.0.2')`),
    ).toEqual([
      ["1.1.1.1", 2],
      ["10.0.0.2", 0],
    ]);
  });

  it("a selected nested repeated field is an array (mode REPEATED) per element", async () => {
    const answer = await run(
      `SELECT ip, services.port, services.tls.certificate.names FROM ${T} WHERE ip = '8.8.8.8'`,
    );
    expect(answer.columns[2]).toEqual({
      name: "services_tls_certificate_names",
      type: "STRING",
      mode: "REPEATED",
      path: "services.tls.certificate.names",
    });
    expect(answer.rows).toEqual([
      ["8.8.8.8", 53, []],
      ["8.8.8.8", 443, ["dns.google"]],
    ]);
  });

  it("refuses to flatten two groups of one table together", () => {
    expect(refusal(`SELECT services.port, protocols FROM ${T}`)).toBe(
      "Cannot query the cross product of repeated fields services and protocols at [1:23]",
    );
  });

  it("legacy FLATTEN flattens explicitly and keeps rows with an empty record", async () => {
    expect(
      await rowsOf(`SELECT ip, services.port FROM FLATTEN(${T}, services) WHERE ip LIKE '10.%'`),
    ).toEqual([
      ["10.0.0.1", 22],
      ["10.0.0.2", null],
    ]);
    expect((await rowsOf(`SELECT COUNT(*) FROM FLATTEN(${T}, services.port)`))[0]).toEqual([9]);
  });
});

describe("explicit UNNEST", () => {
  it("gives one row per element and drops rows whose array is empty", async () => {
    const answer = await run(
      `SELECT ip, s.port, s.service_name FROM ${T}, UNNEST(services) AS s WHERE ip LIKE '10.%'`,
    );
    expect(answer.columns.map((c) => c.name)).toEqual(["ip", "port", "service_name"]);
    expect(answer.rows).toEqual([["10.0.0.1", 22, "SSH"]]);
  });

  it("LEFT JOIN UNNEST keeps a row with an empty array, with NULLs", async () => {
    expect(
      await rowsOf(`SELECT ip, s.port FROM ${T} LEFT JOIN UNNEST(services) s WHERE ip LIKE '10.%'`),
    ).toEqual([
      ["10.0.0.1", 22],
      ["10.0.0.2", null],
    ]);
  });

  it("CROSS JOIN and JOIN ... ON filter the elements", async () => {
    expect(
      await rowsOf(`SELECT ip, s.port FROM ${T} CROSS JOIN UNNEST(services) s WHERE s.port = 53`),
    ).toEqual([["8.8.8.8", 53]]);
    expect(await rowsOf(`SELECT ip, s.port FROM ${T} JOIN UNNEST(services) s ON s.port > 1000`)).toEqual([
      ["203.0.113.5", 8080],
    ]);
  });

  it("WITH OFFSET numbers the elements from 0", async () => {
    expect(
      await rowsOf(`SELECT s.port, i FROM ${T}, UNNEST(services) s WITH OFFSET AS i WHERE ip = '1.1.1.1'`),
    ).toEqual([
      [443, 0],
      [80, 1],
    ]);
  });

  it("a scalar array's alias is the value", async () => {
    const answer = await run(
      "SELECT fingerprint_sha256, name FROM certificates.20261031, UNNEST(parsed.names) AS name",
    );
    expect(answer.columns.map((c) => c.name)).toEqual(["fingerprint_sha256", "name"]);
    expect(answer.rows).toHaveLength(5);
    expect(answer.rows[1]).toEqual(["aa11", "cloudflare-dns.com"]);
  });

  it("after UNNEST, the record's path means the same element", async () => {
    expect(
      await rowsOf(`SELECT s.port, services.service_name FROM ${T}, UNNEST(services) s WHERE ip = '8.8.8.8'`),
    ).toEqual([
      [53, "DNS"],
      [443, "HTTP"],
    ]);
  });

  it("unnests a nested array of an unnested element", async () => {
    expect(
      await rowsOf(
        `SELECT s.port, n FROM ${T}, UNNEST(services) s, UNNEST(s.tls.certificate.names) n WHERE ip = '1.1.1.1'`,
      ),
    ).toEqual([
      [443, "one.one.one.one"],
      [443, "cloudflare-dns.com"],
    ]);
  });

  it("refuses UNNEST of a field that is not repeated, and a nested array whose record is not unnested", () => {
    expect(refusal(`SELECT 1 FROM ${T}, UNNEST(ip) x`)).toBe(
      "UNNEST needs an array, but ip is not repeated at [1:37]",
    );
    expect(refusal(`SELECT 1 FROM ${T}, UNNEST(services.tls.certificate.names) x`)).toBe(
      "UNNEST(services.tls.certificate.names) needs services unnested first at [1:37]",
    );
  });
});
