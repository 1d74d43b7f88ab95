import { env } from "cloudflare:workers";
import { hostDocumentSchema, v2ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { hostFacts } from "./support/dataset-facts";
import { getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

interface HistoryRow {
  ip: string;
  valid_from: number;
  valid_to: number | null;
  doc: string;
}

async function historyOf(ip: string): Promise<HistoryRow[]> {
  const { results } = await env.DB.prepare("select * from host_history where ip = ? order by valid_from")
    .bind(ip)
    .all<HistoryRow>();
  return results;
}

/** A host the dataset holds in two versions or more (which host that is changes with the seed day). */
async function hostWithVersions(): Promise<{ ip: string; versions: HistoryRow[] }> {
  const row = await env.DB.prepare(
    "select ip from host_history group by ip having count(*) >= 2 order by ip limit 1",
  ).first<{ ip: string }>();
  if (!row) throw new Error("the seeded dataset has no host with two versions");
  return { ip: row.ip, versions: await historyOf(row.ip) };
}

/** An RFC 3339 instant with nanosecond digits, `ms` after the epoch plus 123456 ns. */
function nanos(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "123456Z");
}

describe("GET /api/v2/hosts/:ip", () => {
  it("returns the current host document inside the v2 envelope", async () => {
    const [host] = await hostFacts();
    const { res, body } = await getJson(`/api/v2/hosts/${host!.ip}`);
    expect(res.status).toBe(200);
    expect(body).toEqual({ code: 200, status: "OK", result: host!.doc });
    expect(hostDocumentSchema.safeParse(body.result).success).toBe(true);
  });

  it("returns the host as it was at a nanosecond at_time inside an older version", async () => {
    const { ip, versions } = await hostWithVersions();
    const [older, newer] = versions;
    const at = nanos(older!.valid_from + 1000);
    const { res, body } = await getJson(`/api/v2/hosts/${ip}?at_time=${encodeURIComponent(at)}`);
    expect(res.status).toBe(200);
    expect(body.result).toEqual(JSON.parse(older!.doc));
    expect(body.result).not.toEqual(JSON.parse(newer!.doc));
  });

  it("takes the version that starts exactly at at_time (valid_from inclusive, valid_to exclusive)", async () => {
    const { ip, versions } = await hostWithVersions();
    const [, newer] = versions;
    const at = new Date(newer!.valid_from).toISOString();
    const { body } = await getJson(`/api/v2/hosts/${ip}?at_time=${at}`);
    expect(body.result).toEqual(JSON.parse(newer!.doc));
  });

  it("accepts at_time with an offset instead of Z", async () => {
    const [host] = await hostFacts();
    const [older] = await historyOf(host!.ip);
    // Midnight UTC is 02:00 at +02:00.
    const utc = new Date(older!.valid_from + 3_600_000);
    const local = new Date(utc.getTime() + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    const { res, body } = await getJson(`/api/v2/hosts/${host!.ip}?at_time=${encodeURIComponent(local)}`);
    expect(res.status).toBe(200);
    expect(body.result).toEqual(JSON.parse(older!.doc));
  });

  it("answers the current document from its update time on, the history version before it", async () => {
    // A host re-observed after its last change: the current document is newer than the open
    // history version, as the generator writes them.
    const ip = "192.0.2.77";
    const changed = Date.parse("2024-06-01T00:00:00Z");
    const rescanned = Date.parse("2024-06-03T12:00:00Z");
    const historic = { ip, last_updated_at: "2024-06-01T00:00:00Z", services: [] };
    const current = { ip, last_updated_at: "2024-06-03T12:00:00Z", services: [] };
    await env.DB.batch([
      env.DB.prepare(
        "insert into hosts (ip, ip_num, last_updated_at, services_count, doc, v1_doc) values (?, 3221226061, ?, 0, ?, '{}')",
      ).bind(ip, rescanned, JSON.stringify(current)),
      env.DB.prepare("insert into host_history (ip, valid_from, valid_to, doc) values (?, ?, null, ?)").bind(
        ip,
        changed,
        JSON.stringify(historic),
      ),
    ]);
    const at = async (time: string) => (await getJson(`/api/v2/hosts/${ip}?at_time=${time}`)).body.result;
    expect(await at("2024-06-02T00:00:00Z")).toEqual(historic);
    expect(await at("2024-06-03T11:59:59.999999999Z")).toEqual(historic);
    expect(await at("2024-06-03T12:00:00Z")).toEqual(current);
    expect(await at("2030-01-01T00:00:00Z")).toEqual(current);
  });

  it("answers 404 for an at_time before the host existed", async () => {
    const [host] = await hostFacts();
    const [older] = await historyOf(host!.ip);
    const { res, body } = await getJson(
      `/api/v2/hosts/${host!.ip}?at_time=${new Date(older!.valid_from - 1).toISOString()}`,
    );
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
  });

  it("answers 404 for a host it does not know", async () => {
    const { res, body } = await getJson("/api/v2/hosts/10.255.255.254");
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
    expect(String(body.error)).toContain("10.255.255.254");
  });

  it.each(["999.1.1.1", "1.2.3", "not-an-ip", "1.1.1.1.1"])(
    "answers the invalid IP %s with 422",
    async (ip) => {
      const { res, body } = await getJson(`/api/v2/hosts/${ip}`);
      expect(res.status).toBe(422);
      expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 422, status: "Unprocessable Entity" });
      expect(String(body.error)).toMatch(/Invalid IP address/);
    },
  );

  it.each(["yesterday", "2024-05-01", "2024-02-30T00:00:00Z", "2024-05-01T00:00:00"])(
    "answers the malformed at_time %s with 422",
    async (at) => {
      const [host] = await hostFacts();
      const { res, body } = await getJson(`/api/v2/hosts/${host!.ip}?at_time=${encodeURIComponent(at)}`);
      expect(res.status).toBe(422);
      expect(String(body.error)).toMatch(/at_time/);
    },
  );
});
