import { CREDIT_COSTS, V3_SCAN_DURATION_MS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { datasetNow, hostFacts, websiteDocs } from "./support/dataset-facts";
import { platformOrg, rowCount } from "./support/platform-org";
import { balanceOf } from "./v3-requests";

beforeAll(() => seedTestDataset());

type Result<T> = { result: T };
interface Scan {
  tracked_scan_id: string;
  completed: boolean;
  tasks: { status: string; update_time: string }[];
}
interface HostAsset {
  resource: { services: { port: number; transport_protocol: string; scan_time: string }[] };
}

describe("live rescans and discovery scans", () => {
  it("rescans a known service: scanning, then completed, and the host lookup shows the new scan time", async () => {
    // Asked after the dataset's scans (its "now"), so the rescan is the service's latest.
    const org = platformOrg("org-rescan", { start: await datasetNow() });
    const [host] = await hostFacts();
    const service = host!.doc.services[0]!;
    const before = await org.json<Result<HostAsset>>("GET", `/v3/global/asset/host/${host!.ip}`);
    const target = {
      service_id: {
        ip: host!.ip,
        port: service.port,
        protocol: service.service_name,
        transport_protocol: service.transport_protocol.toLowerCase(),
      },
    };
    const started = await org.json<Result<Scan>>("POST", "/v3/global/scans/rescan", { body: { target } });
    expect(started.status).toBe(200);
    expect(started.body.result).toMatchObject({ completed: false, tasks: [{ status: "scanning" }], target });
    const id = started.body.result.tracked_scan_id;
    const waiting = await org.json<Result<HostAsset>>("GET", `/v3/global/asset/host/${host!.ip}`);
    expect(waiting.body.result.resource.services).toEqual(before.body.result.resource.services);
    org.advance(V3_SCAN_DURATION_MS);
    const done = await org.json<Result<Scan>>("GET", `/v3/global/scans/${id}`);
    expect(done.body.result).toMatchObject({ completed: true, tasks: [{ status: "completed" }] });
    const after = await org.json<Result<HostAsset>>("GET", `/v3/global/asset/host/${host!.ip}`);
    const scanned = after.body.result.resource.services.find((s) => s.port === service.port)!;
    expect(scanned.scan_time).toBe(new Date(org.now()).toISOString());
    const others = after.body.result.resource.services.filter((s) => s.port !== service.port);
    expect(others).toEqual(before.body.result.resource.services.filter((s) => s.port !== service.port));
    // The same scan is read at the threat-hunting path too.
    expect((await org.call("GET", `/v3/threat-hunting/scans/${id}`)).status).toBe(200);
  });

  it("rescans a website's origin, and refuses a service or origin the dataset does not know with 400", async () => {
    const org = platformOrg("org-rescan-refusals");
    const [site] = (await websiteDocs()) as { domain: string; doc: { ports: number[] } }[];
    const origin = await org.json<Result<Scan>>("POST", "/v3/global/scans/rescan", {
      body: { target: { web_origin: { hostname: site!.domain, port: site!.doc.ports[0] } } },
    });
    expect(origin.status).toBe(200);
    const balance = await balanceOf(org.id);
    const scans = await rowCount("v3_scans", "organization_id = ?", org.id);
    const refused = [
      { service_id: { ip: "192.0.2.1", port: 22, protocol: "SSH", transport_protocol: "tcp" } },
      { web_origin: { hostname: "never-seen.example", port: 443 } },
    ];
    for (const target of refused) {
      const { status, body } = await org.json<{ errors: { location: string }[] }>(
        "POST",
        "/v3/global/scans/rescan",
        {
          body: { target },
        },
      );
      expect(status).toBe(400);
      expect(body.errors[0]?.location).toMatch(/^body\.target\./);
    }
    expect((await org.call("POST", "/v3/global/scans/rescan", { body: { target: {} } })).status).toBe(400);
    expect(await rowCount("v3_scans", "organization_id = ?", org.id)).toBe(scans);
    expect(await balanceOf(org.id)).toBe(balance);
  });

  it("discovers: an open port completes, a closed one times out, a name that resolves nowhere is rejected", async () => {
    const org = platformOrg("org-discovery");
    const [host] = await hostFacts();
    const open = host!.doc.services[0]!.port;
    const targets = [
      { host_port: { ip: host!.ip, port: open } },
      { host_port: { ip: host!.ip, port: 65001 } },
      { hostname_port: { hostname: "nowhere.example", port: 443 } },
    ];
    const ids: string[] = [];
    for (const target of targets) {
      const { status, body } = await org.json<Result<Scan>>("POST", "/v3/threat-hunting/scans/discovery", {
        body: { target },
      });
      expect(status).toBe(200);
      ids.push(body.result.tracked_scan_id);
    }
    org.advance(V3_SCAN_DURATION_MS);
    const outcomes = [];
    for (const id of ids)
      outcomes.push(
        (await org.json<Result<Scan>>("GET", `/v3/threat-hunting/scans/${id}`)).body.result.tasks[0]!.status,
      );
    expect(outcomes).toEqual(["completed", "timed_out", "rejected"]);
  });

  it("charges 10 credits a rescan and 15 a discovery before scanning, and scans nothing it cannot charge", async () => {
    const rich = platformOrg("org-scan-credits", { credits: 100 });
    const poor = platformOrg("org-scan-poor", { credits: 12 });
    const [host] = await hostFacts();
    const target = { host_port: { ip: host!.ip, port: 22 } };
    await rich.call("POST", "/v3/threat-hunting/scans/discovery", { body: { target } });
    expect(await balanceOf(rich.id)).toBe(100 - CREDIT_COSTS.v3_scan_discovery.credits);
    const refused = await poor.json<{ status: number; errors: { message: string }[] }>(
      "POST",
      "/v3/threat-hunting/scans/discovery",
      {
        body: { target },
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ message: "insufficient balance" }]);
    expect(await rowCount("v3_scans", "organization_id = ?", poor.id)).toBe(0);
    expect(await balanceOf(poor.id)).toBe(12);
  });

  it("does not find another organization's scan, nor one it never made", async () => {
    const mine = platformOrg("org-scan-mine");
    const theirs = platformOrg("org-scan-theirs");
    const [host] = await hostFacts();
    const { body } = await mine.json<Result<Scan>>("POST", "/v3/threat-hunting/scans/discovery", {
      body: { target: { host_port: { ip: host!.ip, port: 22 } } },
    });
    expect((await theirs.call("GET", `/v3/global/scans/${body.result.tracked_scan_id}`)).status).toBe(404);
    expect((await mine.call("GET", "/v3/global/scans/scn_unknown")).status).toBe(404);
  });
});
