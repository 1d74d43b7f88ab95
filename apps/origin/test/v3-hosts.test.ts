import { env } from "cloudflare:workers";
import { v3Envelope, v3HostAssetSchema, v3HostTimelineSchema, V3_MEDIA_TYPES } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts, type HostFacts } from "./support/dataset-facts";
import { expectProblem, v3Get, v3Post } from "./v3-requests";

beforeAll(() => seedTestDataset());

interface HistoryRow {
  valid_from: number;
  valid_to: number | null;
  doc: string;
}

async function historyOf(ip: string): Promise<HistoryRow[]> {
  const { results } = await env.DB.prepare(
    "select valid_from, valid_to, doc from host_history where ip = ? order by valid_from",
  )
    .bind(ip)
    .all<HistoryRow>();
  return results;
}

type CertificateService = HostFacts["doc"]["services"][number] & { certificate?: string };

/** A host whose services present a certificate, with the fingerprint of the first. */
async function hostWithCertificate(): Promise<{ host: HostFacts; fingerprint: string }> {
  for (const host of await hostFacts()) {
    const service = (host.doc.services as CertificateService[]).find((s) => s.certificate);
    if (service?.certificate) return { host, fingerprint: service.certificate };
  }
  throw new Error("the fixture has no host presenting a certificate");
}

async function hostWithHistory(): Promise<{ ip: string; history: HistoryRow[] }> {
  for (const host of await hostFacts()) {
    const history = await historyOf(host.ip);
    if (history.length >= 2 && history.some((row, i) => i > 0 && row.doc !== history[i - 1]!.doc)) {
      return { ip: host.ip, history };
    }
  }
  throw new Error("the fixture has no host with a changed history");
}

const hostEnvelope = v3Envelope(v3HostAssetSchema);

describe("GET /v3/global/asset/host/{host_id}", () => {
  it("projects the v2 document into the Platform's Host, in the host media type", async () => {
    const { host, fingerprint } = await hostWithCertificate();
    const { res, body } = await v3Get(`/v3/global/asset/host/${host.ip}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.host);
    const { result } = hostEnvelope.parse(body);
    expect(result.extensions).toEqual({});
    const resource = result.resource;
    expect(resource.ip).toBe(host.ip);
    expect(resource.service_count).toBe(host.doc.services.length);
    expect(resource.autonomous_system?.asn).toBe((host.doc.autonomous_system as { asn: number }).asn);
    expect(resource.location?.country).toBe(host.doc.location?.country);
    const ports = (resource.services ?? []).map((s) => `${s.port}/${s.protocol}/${s.transport_protocol}`);
    expect(ports).toEqual(
      host.doc.services.map((s) => `${s.port}/${s.service_name}/${s.transport_protocol.toLowerCase()}`),
    );
    // The presented certificate is embedded as the Platform's Certificate.
    const withCert = (resource.services ?? []).find((s) => s.cert);
    expect((withCert?.cert as { fingerprint_sha256?: string }).fingerprint_sha256).toBe(fingerprint);
  });

  it("gives each HTTP service an endpoint with the response the scan saw", async () => {
    const hosts = await hostFacts();
    const host = hosts.find((h) => h.doc.services.some((s) => s.service_name === "HTTP"))!;
    const { body } = await v3Get(`/v3/global/asset/host/${host.ip}`);
    const { result } = hostEnvelope.parse(body);
    const v2 = host.doc.services.find((s) => s.service_name === "HTTP") as unknown as {
      port: number;
      http: { response: { status_code: number; html_title?: string } };
    };
    const service = result.resource.services!.find((s) => s.port === v2.port)!;
    expect(service.endpoints?.[0]).toMatchObject({
      endpoint_type: "HTTP",
      path: "/",
      port: v2.port,
      http: { status_code: v2.http.response.status_code, html_title: v2.http.response.html_title },
    });
  });

  it("answers the host as it was at at_time, from the history v2 reads", async () => {
    const { ip, history } = await hostWithHistory();
    const older = history[0]!;
    const at = new Date(older.valid_from + 1000).toISOString();
    const { res, body } = await v3Get(`/v3/global/asset/host/${ip}?at_time=${at}`);
    expect(res.status).toBe(200);
    const then = JSON.parse(older.doc) as { services: { port: number }[] };
    const { result } = hostEnvelope.parse(body);
    expect(result.resource.services!.map((s) => s.port)).toEqual(then.services.map((s) => s.port));
  });

  it("answers 404 problem+json for a host before it was first seen", async () => {
    const { ip, history } = await hostWithHistory();
    const at = new Date(history[0]!.valid_from - 86_400_000).toISOString();
    const problem = await expectProblem((await v3Get(`/v3/global/asset/host/${ip}?at_time=${at}`)).res, 404);
    expect(problem.detail).toContain(ip);
  });

  it("answers 404 for an address the dataset does not hold", async () => {
    const problem = await expectProblem((await v3Get("/v3/global/asset/host/192.0.2.1")).res, 404);
    expect(problem).toMatchObject({ title: "Not Found", detail: "Host 192.0.2.1 not found." });
  });

  it("answers 400 naming the input for a host_id that is not an address", async () => {
    const problem = await expectProblem((await v3Get("/v3/global/asset/host/not-an-ip")).res, 400);
    expect(problem.errors?.[0]).toMatchObject({ location: "path.host_id", value: "not-an-ip" });
  });

  it("answers 400 for an at_time that is not RFC 3339", async () => {
    const [host] = await hostFacts();
    const problem = await expectProblem(
      (await v3Get(`/v3/global/asset/host/${host!.ip}?at_time=yesterday`)).res,
      400,
    );
    expect(problem.errors?.[0]).toMatchObject({ location: "query.at_time", value: "yesterday" });
  });
});

describe("POST /v3/global/asset/host", () => {
  const listEnvelope = v3Envelope(z.array(v3HostAssetSchema));

  it("answers the hosts found in the order asked, leaving unknown addresses out", async () => {
    const hosts = await hostFacts();
    const ids = [hosts[2]!.ip, "192.0.2.55", hosts[0]!.ip, hosts[2]!.ip];
    const { res, body } = await v3Post("/v3/global/asset/host", { host_ids: ids });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.host);
    const { result } = listEnvelope.parse(body);
    expect(result.map((asset) => asset.resource.ip)).toEqual([hosts[2]!.ip, hosts[0]!.ip]);
  });

  it("answers an empty list when no address is known", async () => {
    const { res, body } = await v3Post("/v3/global/asset/host", { host_ids: ["192.0.2.1", "2001:db8::1"] });
    expect(res.status).toBe(200);
    expect(listEnvelope.parse(body).result).toEqual([]);
  });

  it("reads every host at at_time", async () => {
    const { ip, history } = await hostWithHistory();
    const at = new Date(history[0]!.valid_from + 1000).toISOString();
    const { body } = await v3Post("/v3/global/asset/host", { host_ids: [ip], at_time: at });
    const then = JSON.parse(history[0]!.doc) as { services: unknown[] };
    expect(listEnvelope.parse(body).result[0]!.resource.service_count).toBe(then.services.length);
  });

  it("refuses ids that are not addresses, naming each", async () => {
    const [host] = await hostFacts();
    const { res } = await v3Post("/v3/global/asset/host", { host_ids: [host!.ip, "nope", "1.2.3"] });
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      { location: "body.host_ids[1]", message: "not an IP address", value: "nope" },
      { location: "body.host_ids[2]", message: "not an IP address", value: "1.2.3" },
    ]);
  });

  it("refuses a missing, empty or oversized host_ids", async () => {
    for (const body of [
      {},
      { host_ids: [] },
      { host_ids: Array.from({ length: 101 }, () => "192.0.2.1") },
      { host_ids: "1.1.1.1" },
    ]) {
      const { res } = await v3Post("/v3/global/asset/host", body);
      const problem = await expectProblem(res, 400);
      expect(problem.errors?.[0]?.location).toBe("body.host_ids");
    }
  });
});

describe("GET /v3/global/asset/host/{host_id}/timeline", () => {
  const timelineEnvelope = v3Envelope(v3HostTimelineSchema);

  it("lists the history's changes newest first, within the window", async () => {
    const { ip, history } = await hostWithHistory();
    const start = new Date(Date.parse("2030-01-01T00:00:00Z")).toISOString();
    const end = new Date(history[0]!.valid_from).toISOString();
    const { res, body } = await v3Get(
      `/v3/global/asset/host/${ip}/timeline?start_time=${start}&end_time=${end}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.hostTimeline);
    const timeline = timelineEnvelope.parse(body).result;
    expect(timeline.scanned_to).toBe(end);
    const times = timeline.events.map((e) => Date.parse(e.resource.event_time!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Every version start is an event time; the first version's services are all "scanned".
    const starts = new Set(history.map((row) => row.valid_from));
    expect(times.every((t) => starts.has(t))).toBe(true);
    const first = JSON.parse(history[0]!.doc) as { services: { port: number }[] };
    const firstScans = timeline.events
      .filter(
        (e) => Date.parse(e.resource.event_time!) === history[0]!.valid_from && e.resource.service_scanned,
      )
      .map((e) => e.resource.service_scanned!.scan!.port);
    expect(firstScans.sort()).toEqual(first.services.map((s) => s.port).sort());
  });

  it("reports a changed service with the fields that changed", async () => {
    const { ip, history } = await hostWithHistory();
    const start = "2030-01-01T00:00:00Z";
    const end = new Date(history[1]!.valid_from).toISOString();
    const { body } = await v3Get(`/v3/global/asset/host/${ip}/timeline?start_time=${start}&end_time=${end}`);
    const timeline = timelineEnvelope.parse(body).result;
    expect(timeline.events.length).toBeGreaterThan(0);
    for (const { resource } of timeline.events) {
      expect(Date.parse(resource.event_time!)).toBeGreaterThanOrEqual(history[1]!.valid_from);
      const scanned = resource.service_scanned;
      if (scanned?.scan?.is_success) expect(Object.keys(scanned.diff ?? {}).length).toBeGreaterThan(0);
    }
  });

  it("answers an empty timeline for a window with no change", async () => {
    const { ip, history } = await hostWithHistory();
    const before = history[0]!.valid_from - 10_000;
    const { body } = await v3Get(
      `/v3/global/asset/host/${ip}/timeline?start_time=${new Date(before).toISOString()}&end_time=${new Date(before - 86_400_000).toISOString()}`,
    );
    expect(timelineEnvelope.parse(body).result.events).toEqual([]);
  });

  it("refuses a start_time earlier than end_time (start_time is the later bound)", async () => {
    const [host] = await hostFacts();
    const { res } = await v3Get(
      `/v3/global/asset/host/${host!.ip}/timeline?start_time=2026-01-01T00:00:00Z&end_time=2026-02-01T00:00:00Z`,
    );
    const problem = await expectProblem(res, 400);
    expect(problem.errors?.[0]?.location).toBe("query.start_time");
  });

  it("refuses missing bounds and answers 404 for an unknown host", async () => {
    const [host] = await hostFacts();
    const missing = await expectProblem((await v3Get(`/v3/global/asset/host/${host!.ip}/timeline`)).res, 400);
    expect(missing.errors?.map((e) => e.location).sort()).toEqual(["query.end_time", "query.start_time"]);
    const unknown = await v3Get(
      "/v3/global/asset/host/192.0.2.9/timeline?start_time=2026-02-01T00:00:00Z&end_time=2026-01-01T00:00:00Z",
    );
    await expectProblem(unknown.res, 404);
  });
});
