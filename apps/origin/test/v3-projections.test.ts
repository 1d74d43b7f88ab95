import { parseWebpropertyId, renderV3Problem, v3ProblemSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { creditsFor, CREDIT_COSTS } from "@scangate/core";
import { creditUsageReport } from "../src/services/credit-usage";
import { certificatePem, v3Certificate } from "../src/services/v3-certificate";
import { v3Service } from "../src/services/v3-host";

/** The pure modules behind the v3 routes: ids, problems, costs, reports and projections. */

describe("parseWebpropertyId", () => {
  it("splits hostname:port at the last colon and lowercases the name", () => {
    expect(parseWebpropertyId("Example.COM:443")).toEqual({ hostname: "example.com", port: 443 });
    expect(parseWebpropertyId("2001:db8::1:8080")).toEqual({ hostname: "2001:db8::1", port: 8080 });
  });

  it("refuses ids without a name or a port in 1..65535", () => {
    for (const id of [
      "example.com",
      ":443",
      "example.com:",
      "example.com:0",
      "example.com:65536",
      "a b:80",
      "x:1e3",
    ]) {
      expect(parseWebpropertyId(id), id).toBeNull();
    }
  });
});

describe("renderV3Problem", () => {
  it("renders every kind as a problem document, extras never replacing its members", () => {
    const { status, body } = renderV3Problem("not_found", "Host 1.2.3.4 not found.", {
      title: "x",
      status: 200,
      instance: "/v3/x",
    });
    expect(status).toBe(404);
    expect(v3ProblemSchema.parse(body)).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Host 1.2.3.4 not found.",
      instance: "/v3/x",
    });
  });

  it("renders an exhausted balance as the Platform's 422 insufficient balance", () => {
    expect(renderV3Problem("quota_exceeded")).toEqual({
      status: 422,
      body: {
        type: "about:blank",
        title: "Unprocessable Entity",
        status: 422,
        detail: "Unprocessable Entity",
        errors: [{ message: "insufficient balance" }],
      },
    });
  });
});

describe("credit costs", () => {
  it("charges per call or per asset as the table says", () => {
    expect(creditsFor("v3_host", 0)).toBe(1);
    expect(creditsFor("v3_hosts", 7)).toBe(7);
    expect(creditsFor("v3_hosts", 0)).toBe(0);
    expect(creditsFor("v3_organization_credits", 0)).toBe(0);
    expect(CREDIT_COSTS.v3_search_query).toEqual({ per: "call", credits: 1 });
  });
});

describe("creditUsageReport", () => {
  it("clips monthly periods to the window and totals them", () => {
    const startMs = Date.parse("2026-01-15T00:00:00Z");
    const endMs = Date.parse("2026-03-11T00:00:00Z");
    const rows = [
      { userId: null, operation: "grant", amount: 100, createdAt: Date.parse("2026-01-15T01:00:00Z") },
      { userId: "u1", operation: "v3_host", amount: -1, createdAt: Date.parse("2026-02-01T00:00:00Z") },
      { userId: "u2", operation: "v3_hosts", amount: -4, createdAt: Date.parse("2026-03-10T23:59:59Z") },
    ];
    const report = creditUsageReport(rows, { startMs, endMs, granularity: "monthly" }, { byConsumer: true });
    expect(
      report.periods.map((p) => [p.start_date, p.end_date, p.credits_added, p.credits_consumed]),
    ).toEqual([
      ["2026-01-15T00:00:00Z", "2026-01-31T23:59:59Z", 100, 0],
      ["2026-02-01T00:00:00Z", "2026-02-28T23:59:59Z", 0, 1],
      ["2026-03-01T00:00:00Z", "2026-03-10T23:59:59Z", 0, 4],
    ]);
    expect(report).toMatchObject({ total_added: 100, total_consumed: 5, transaction_count: 3 });
    expect(report.credits_consumed_by_consumer).toEqual({ u1: 1, u2: 4 });
  });
});

describe("v3 projections", () => {
  it("renames the v1 certificate's fields to the Platform's and renders its PEM", () => {
    const v1 = {
      raw: "A".repeat(70),
      parsed: {
        fingerprint_sha256: "ab".repeat(32),
        tbs_fingerprint: "cd".repeat(32),
        serial_number: "255",
        validity: { start: "2026-01-01T00:00:00Z", end: "2027-01-01T00:00:00Z", length: 31536000 },
        extensions: {
          signed_certificate_timestamps: [
            { version: 0, log_id: "bG9n", timestamp: 1614903061, signature: "c2ln" },
          ],
        },
      },
      metadata: { added_at: "2026-01-02T00:00:00Z", parse_status: "success", seen_in_scan: true },
      validation: { nss: { valid: true, was_valid: true, trusted_path: true, parents: ["p"] } },
    };
    const cert = v3Certificate(v1);
    expect(cert).toMatchObject({
      fingerprint_sha256: "ab".repeat(32),
      tbs_fingerprint_sha256: "cd".repeat(32),
      added_at: "2026-01-02T00:00:00Z",
      ever_seen_in_scan: true,
      validation: { nss: { is_valid: true, ever_valid: true, has_trusted_path: true, parents: ["p"] } },
      parsed: {
        serial_number_hex: "ff",
        validity_period: { not_before: "2026-01-01T00:00:00Z", length_seconds: 31536000 },
        extensions: {
          signed_certificate_timestamps: [
            {
              version: 0,
              log_id: "bG9n",
              timestamp: "2021-03-05T00:11:01.000Z",
              signature: { signature: "c2ln" },
            },
          ],
        },
      },
    });
    expect(certificatePem(v1)).toBe(
      `-----BEGIN CERTIFICATE-----\n${"A".repeat(64)}\n${"A".repeat(6)}\n-----END CERTIFICATE-----\n`,
    );
    expect(certificatePem({})).toBeNull();
  });

  it("gives the dataset's validation levels (DV, OV, EV, unknown) as the SDK's ValidationLevel", () => {
    const levelOf = (level: unknown) =>
      v3Certificate({ parsed: { validation_level: level } }).validation_level;
    expect(["DV", "OV", "EV", "unknown", "dv", 7].map(levelOf)).toEqual(["dv", "ov", "ev", "", "dv", ""]);
  });

  it("projects a service's protocol block under the SDK's name, telnet options as maps", () => {
    const service = v3Service(
      {
        _decoded: "telnet",
        port: 23,
        service_name: "TELNET",
        transport_protocol: "TCP",
        observed_at: "2026-10-01T00:00:00Z",
        software: [
          {
            uniform_resource_identifier: "cpe:2.3:a:x:y:1",
            vendor: "X",
            product: "Y",
            source: "OSI_APPLICATION_LAYER",
          },
        ],
        telnet: { will: [{ name: "Echo", value: 1 }] },
        labels: ["remote-access"],
        banner_hashes: ["sha256:abc"],
      },
      "192.0.2.1",
      new Map(),
    );
    expect(service).toEqual({
      ip: "192.0.2.1",
      port: 23,
      protocol: "TELNET",
      transport_protocol: "tcp",
      scan_time: "2026-10-01T00:00:00Z",
      banner: undefined,
      software: [
        {
          cpe: "cpe:2.3:a:x:y:1",
          part: undefined,
          vendor: "X",
          product: "Y",
          version: undefined,
          source: "OSI_APPLICATION_LAYER",
        },
      ],
      telnet: { do: {}, will: { Echo: "1" } },
      labels: [{ value: "REMOTE_ACCESS", source: "censys", confidence: 1 }],
      banner_hash_sha256: "abc",
    });
  });
});
