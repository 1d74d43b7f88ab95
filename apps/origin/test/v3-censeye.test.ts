import { CREDIT_COSTS, V3_CENSEYE_JOB_DURATION_MS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts } from "./support/dataset-facts";
import { platformOrg, rowCount } from "./support/platform-org";
import { balanceOf } from "./v3-requests";

beforeAll(() => seedTestDataset());

type Result<T> = { result: T };
interface Job {
  job_id: string;
  state: string;
  result_count?: number;
  target: Record<string, string>;
}
interface Results {
  results: { count: number; field_value_pairs: { field: string; value: string }[] }[];
  next_page_token?: string;
}

interface HostDoc {
  ip: string;
  doc: {
    autonomous_system?: { asn?: number };
    location?: { country?: string };
    services: {
      port: number;
      service_name: string;
      certificate?: string;
      software?: { product?: string }[];
    }[];
  };
}

describe("CensEye jobs", () => {
  it("counts the hosts sharing each pivot of a host, once the job completes", async () => {
    const org = platformOrg("org-censeye");
    const hosts = (await hostFacts()) as unknown as HostDoc[];
    const host = hosts.find((h) => h.doc.services.some((s) => s.certificate)) ?? hosts[0]!;
    const made = await org.json<Result<Job>>("POST", "/v3/threat-hunting/censeye/jobs", {
      body: { target: { host_id: host.ip } },
    });
    expect(made.status).toBe(200);
    expect(made.body.result).toMatchObject({ state: "started", target: { host_id: host.ip } });
    const id = made.body.result.job_id;
    const early = await org.json<Result<Results>>("GET", `/v3/threat-hunting/censeye/jobs/${id}/results`);
    expect(early.body.result.results).toEqual([]);
    org.advance(V3_CENSEYE_JOB_DURATION_MS);
    const job = await org.json<Result<Job>>("GET", `/v3/threat-hunting/censeye/jobs/${id}`);
    expect(job.body.result.state).toBe("completed");
    const { body } = await org.json<Result<Results>>("GET", `/v3/threat-hunting/censeye/jobs/${id}/results`);
    expect(body.result.results.length).toBe(job.body.result.result_count);
    const counted = new Map(
      body.result.results.map((r) => [
        `${r.field_value_pairs[0]!.field}=${r.field_value_pairs[0]!.value}`,
        r.count,
      ]),
    );
    const asn = host.doc.autonomous_system?.asn;
    expect(counted.get(`host.autonomous_system.asn=${asn}`)).toBe(
      hosts.filter((h) => h.doc.autonomous_system?.asn === asn).length,
    );
    const fp = host.doc.services.find((s) => s.certificate)?.certificate;
    if (fp)
      expect(counted.get(`host.services.cert.fingerprint_sha256=${fp}`)).toBe(
        hosts.filter((h) => h.doc.services.some((s) => s.certificate === fp)).length,
      );
    expect(await balanceOf(org.id)).toBe(100_000 - CREDIT_COSTS.v3_censeye_job_create.targets.host);
  });

  it("prices a certificate job at 7 credits, and lists the organization's jobs by target", async () => {
    const org = platformOrg("org-censeye-list");
    const [cert] = await certificateDocs();
    const [host] = await hostFacts();
    await org.call("POST", "/v3/threat-hunting/censeye/jobs", {
      body: { target: { certificate_id: cert!.sha256.toUpperCase() } },
    });
    expect(await balanceOf(org.id)).toBe(100_000 - CREDIT_COSTS.v3_censeye_job_create.targets.certificate);
    await org.call("POST", "/v3/threat-hunting/censeye/jobs", { body: { target: { host_id: host!.ip } } });
    const all = await org.json<Result<{ jobs: Job[] }>>("GET", "/v3/threat-hunting/censeye/jobs");
    expect(all.body.result.jobs).toHaveLength(2);
    const forHost = await org.json<Result<{ jobs: Job[] }>>(
      "GET",
      `/v3/threat-hunting/censeye/jobs?host_id=${host!.ip}`,
    );
    expect(forHost.body.result.jobs.map((j) => j.target)).toEqual([{ host_id: host!.ip }]);
    expect(
      (
        await org.call(
          "GET",
          `/v3/threat-hunting/censeye/jobs?host_id=${host!.ip}&certificate_id=${cert!.sha256}`,
        )
      ).status,
    ).toBe(400);
  });

  it("refuses a target that names none, two, a malformed or an unknown asset with 400, charging and writing nothing", async () => {
    const org = platformOrg("org-censeye-refusals");
    const targets = [
      {},
      { host_id: "1.1.1.1", certificate_id: "a".repeat(64) },
      { host_id: "x" },
      { host_id: "192.0.2.1" },
      { webproperty_id: "nope" },
    ];
    for (const target of targets)
      expect(
        (await org.call("POST", "/v3/threat-hunting/censeye/jobs", { body: { target } })).status,
        JSON.stringify(target),
      ).toBe(400);
    expect(await rowCount("v3_censeye_jobs", "organization_id = ?", org.id)).toBe(0);
    expect(await balanceOf(org.id)).toBe(null);
    expect((await org.call("GET", "/v3/threat-hunting/censeye/jobs/cej_unknown")).status).toBe(404);
  });
});

describe("value counts", () => {
  it("counts the hosts holding each condition, pairs of one service together, within the query", async () => {
    const org = platformOrg("org-value-counts");
    const hosts = (await hostFacts()) as unknown as HostDoc[];
    const country = hosts[0]!.doc.location?.country ?? "";
    const { status, body } = await org.json<Result<{ and_count_results: number[] }>>(
      "POST",
      "/v3/threat-hunting/value-counts",
      {
        body: {
          and_count_conditions: [
            {
              field_value_pairs: [
                { field: "host.services.port", value: "22" },
                { field: "host.services.protocol", value: "SSH" },
              ],
            },
            { field_value_pairs: [{ field: "host.location.country", value: country }] },
            { field_value_pairs: [{ field: "host.services.port", value: "22" }] },
          ],
          query: "host.services.protocol: SSH",
        },
      },
    );
    expect(status).toBe(200);
    const ssh = hosts.filter((h) => h.doc.services.some((s) => s.service_name === "SSH"));
    expect(body.result.and_count_results).toEqual([
      ssh.filter((h) => h.doc.services.some((s) => s.port === 22 && s.service_name === "SSH")).length,
      ssh.filter((h) => h.doc.location?.country === country).length,
      ssh.filter((h) => h.doc.services.some((s) => s.port === 22)).length,
    ]);
    expect(await balanceOf(org.id)).toBe(100_000 - 3 * CREDIT_COSTS.v3_value_counts.credits);
  });

  it("refuses pairs of different nested objects, unknown fields and more than five pairs with 400, charging nothing", async () => {
    const org = platformOrg("org-value-counts-refusals");
    const pair = (field: string, value = "1") => ({ field, value });
    const bodies = [
      {
        and_count_conditions: [
          { field_value_pairs: [pair("host.services.port", "22"), pair("host.location.country", "US")] },
        ],
      },
      { and_count_conditions: [{ field_value_pairs: [pair("host.no_such_field")] }] },
      {
        and_count_conditions: [
          { field_value_pairs: Array.from({ length: 6 }, () => pair("host.services.port")) },
        ],
      },
      { and_count_conditions: [] },
      {
        and_count_conditions: [{ field_value_pairs: [pair("host.services.port")] }],
        query: "host.services.port: (",
      },
    ];
    for (const body of bodies)
      expect(
        (await org.call("POST", "/v3/threat-hunting/value-counts", { body })).status,
        JSON.stringify(body),
      ).toBe(400);
    expect(await balanceOf(org.id)).toBe(null);
  });
});
