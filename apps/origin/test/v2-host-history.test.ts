import { env } from "cloudflare:workers";
import {
  hostDiffResultSchema,
  hostEventsResultSchema,
  v2Envelope,
  v2ErrorSchema,
  type HostEvent,
  type JsonPatchOperation,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { hostFacts } from "./support/dataset-facts";
import { getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

interface HistoryRow {
  valid_from: number;
  doc: string;
}

async function historyOf(ip: string): Promise<HistoryRow[]> {
  const { results } = await env.DB.prepare(
    "select valid_from, doc from host_history where ip = ? order by valid_from",
  )
    .bind(ip)
    .all<HistoryRow>();
  return results;
}

/** The host with the most history versions (so the most events). */
async function busiestHost(): Promise<{ ip: string; history: HistoryRow[] }> {
  let best = { ip: "", history: [] as HistoryRow[] };
  for (const host of await hostFacts()) {
    const history = await historyOf(host.ip);
    if (history.length > best.history.length) best = { ip: host.ip, history };
  }
  return best;
}

/** RFC 6902 applied the plain way, to check a patch really turns A into B. */
function applyPatch(document: unknown, patch: readonly JsonPatchOperation[]): unknown {
  const root: { doc: unknown } = { doc: structuredClone(document) };
  for (const op of patch) {
    const segments = op.path
      .split("/")
      .slice(1)
      .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    let parent: Record<string, unknown> | unknown[] = root;
    let key: string = "doc";
    for (const segment of segments) {
      parent = (parent as Record<string, unknown>)[key] as Record<string, unknown> | unknown[];
      key = segment;
    }
    const target = parent as Record<string, unknown> & unknown[];
    if (op.op === "remove") {
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
    } else if (op.op === "add" && Array.isArray(target)) {
      target.splice(key === "-" ? target.length : Number(key), 0, op.value);
    } else {
      target[key] = op.value;
    }
  }
  return root.doc;
}

const diff = (ip: string, query = "") =>
  getJson(`/api/v2/hosts/${ip}/diff${query}`).then(({ res, body }) => ({
    res,
    body,
    result: res.status === 200 ? v2Envelope(hostDiffResultSchema).parse(body).result : null,
  }));

const events = (ip: string, query = "") =>
  getJson(`/api/v2/experimental/hosts/${ip}/events${query}`).then(({ res, body }) => ({
    res,
    body,
    result: res.status === 200 ? v2Envelope(hostEventsResultSchema).parse(body).result : null,
  }));

const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

describe("GET /api/v2/hosts/:ip/diff", () => {
  it("patches the host at at_time into the host at at_time_b", async () => {
    const { ip, history } = await busiestHost();
    const [older, newer] = history as [HistoryRow, HistoryRow];
    const { res, result } = await diff(
      ip,
      `?at_time=${at(older.valid_from)}&at_time_b=${at(newer.valid_from)}`,
    );
    expect(res.status).toBe(200);
    const a = JSON.parse(older.doc) as { ip: string; last_updated_at: string };
    const b = JSON.parse(newer.doc) as { ip: string; last_updated_at: string };
    expect(result!.a).toEqual({ ip, last_updated_at: a.last_updated_at });
    expect(result!.b).toEqual({ ip, last_updated_at: b.last_updated_at });
    expect(result!.patch.length).toBeGreaterThan(0);
    expect(applyPatch(a, result!.patch)).toEqual(b);
  });

  it("compares a host at a time with the host now when at_time_b is absent", async () => {
    const { ip, history } = await busiestHost();
    const [older] = history as [HistoryRow];
    const { result } = await diff(ip, `?at_time=${at(older.valid_from)}`);
    const current = (await getJson<{ result: unknown }>(`/api/v2/hosts/${ip}`)).body.result;
    expect(applyPatch(JSON.parse(older.doc), result!.patch)).toEqual(current);
  });

  it("compares two hosts with ip_b", async () => {
    const [one, two] = await hostFacts();
    const { result } = await diff(one!.ip, `?ip_b=${two!.ip}`);
    expect(result!.a.ip).toBe(one!.ip);
    expect(result!.b.ip).toBe(two!.ip);
    expect(result!.patch).toContainEqual({ op: "replace", path: "/ip", value: two!.ip });
    expect(applyPatch(one!.doc, result!.patch)).toEqual(two!.doc);
  });

  it("answers an empty patch for the host against itself", async () => {
    const [host] = await hostFacts();
    const { result } = await diff(host!.ip);
    expect(result!.patch).toEqual([]);
    expect(result!.a).toEqual(result!.b);
  });

  it.each([
    ["the path IP", "999.1.1.1", "", /Invalid IP address: 999.1.1.1/],
    ["ip_b", null, "?ip_b=1.2.3", /Invalid IP address: 1.2.3/],
    ["at_time", null, "?at_time=yesterday", /Invalid at_time/],
    ["at_time_b", null, "?at_time_b=2024-02-30T00:00:00Z", /Invalid at_time_b/],
  ])("answers an invalid %s with 422", async (_, badIp, query, message) => {
    const [host] = await hostFacts();
    const { res, body } = await diff(badIp ?? host!.ip, query);
    expect(res.status).toBe(422);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 422, status: "Unprocessable Entity" });
    expect(String((body as { error: string }).error)).toMatch(message);
  });

  it("answers 404 when either host is unknown, or not yet seen at its time", async () => {
    const { ip, history } = await busiestHost();
    for (const [path, query, named] of [
      ["10.255.255.254", "", "10.255.255.254"],
      [ip, "?ip_b=10.255.255.254", "10.255.255.254"],
      [ip, `?at_time_b=${at(history[0]!.valid_from - 1)}`, ip],
    ] as const) {
      const { res, body } = await diff(path, query);
      expect(res.status).toBe(404);
      expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
      expect(String((body as { error: string }).error)).toContain(named);
    }
  });
});

describe("GET /api/v2/experimental/hosts/:ip/events", () => {
  async function allEvents(ip: string, query = ""): Promise<HostEvent[]> {
    const seen: HostEvent[] = [];
    let next = `?per_page=50${query}`;
    for (;;) {
      const { result } = await events(ip, next);
      seen.push(...result!.events);
      if (!result!.links.next) return seen;
      next = `?per_page=50${query}&cursor=${encodeURIComponent(result!.links.next)}`;
    }
  }

  it("tells the host's history in time order, each change seen in the view at its timestamp", async () => {
    const { ip, history } = await busiestHost();
    const { res, result } = await events(ip);
    expect(res.status).toBe(200);
    expect(result!.ip).toBe(ip);
    const list = result!.events;
    const times = list.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    // The first version: where the host is, its route, and each service it ran.
    const first = JSON.parse(history[0]!.doc) as { services: { port: number }[] };
    const opening = list.filter((e) => Date.parse(e.timestamp) === history[0]!.valid_from);
    expect(opening.map((e) => e._event).slice(0, 2)).toEqual(["location_updated", "route_updated"]);
    expect(
      opening.filter((e) => e._event === "service_observed").map((e) => e.service_observed!.id.port),
    ).toEqual(first.services.map((s) => s.port));
    // Every later version starts with at least one event, and the view at that instant agrees.
    for (const version of history.slice(1)) {
      const changes = list.filter((e) => Date.parse(e.timestamp) === version.valid_from);
      expect(changes.length).toBeGreaterThan(0);
      const view = (
        await getJson<{ result: { services: { port: number }[] } }>(
          `/api/v2/hosts/${ip}?at_time=${at(version.valid_from)}`,
        )
      ).body.result;
      for (const change of changes) {
        const ports = view.services.map((s) => s.port);
        if (change._event === "service_observed") expect(ports).toContain(change.service_observed!.id.port);
        if (change._event === "service_removed") expect(ports).not.toContain(change.service_removed!.id.port);
      }
    }
  });

  it("names the fields that changed on a changed service", async () => {
    const hosts = await hostFacts();
    for (const host of hosts) {
      const list = await allEvents(host.ip);
      const changed = list.find(
        (e, i) =>
          e._event === "service_observed" &&
          list
            .slice(0, i)
            .some(
              (p) =>
                p._event === "service_observed" &&
                p.service_observed!.id.port === e.service_observed!.id.port,
            ),
      );
      if (!changed) continue;
      const fields = changed.service_observed!.changed_fields.map((f) => f.field_name);
      expect(fields.length).toBeGreaterThan(0);
      expect(fields.every((f) => f.startsWith("services.") && f !== "services.observed_at")).toBe(true);
      return;
    }
    throw new Error("no host in the dataset has a service that changed");
  });

  it("pages with per_page and cursors, and reverses the order with reversed=True", async () => {
    const { ip } = await busiestHost();
    const all = await allEvents(ip);
    expect(all.length).toBeGreaterThan(3);
    const firstPage = await events(ip, "?per_page=2");
    expect(firstPage.result!.events).toEqual(all.slice(0, 2));
    expect(firstPage.result!.links.prev).toBe("");
    const second = await events(ip, `?per_page=2&cursor=${encodeURIComponent(firstPage.result!.links.next)}`);
    expect(second.result!.events).toEqual(all.slice(2, 4));
    const back = await events(ip, `?per_page=2&cursor=${encodeURIComponent(second.result!.links.prev)}`);
    expect(back.result!.events).toEqual(all.slice(0, 2));
    expect(await allEvents(ip, "&reversed=True")).toEqual([...all].reverse());
  });

  it("keeps events from start_time (inclusive) to end_time (exclusive)", async () => {
    const { ip, history } = await busiestHost();
    const all = await allEvents(ip);
    const from = history[1]!.valid_from;
    const to = history[history.length - 1]!.valid_from;
    const window = await allEvents(ip, `&start_time=${at(from)}&end_time=${at(to)}`);
    const expected = all.filter((e) => Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) < to);
    expect(window).toEqual(expected);
    expect(window.length).toBeGreaterThan(0);
  });

  it("refuses a cursor replayed with other parameters", async () => {
    const { ip } = await busiestHost();
    const { result } = await events(ip, "?per_page=1");
    const cursor = encodeURIComponent(result!.links.next);
    for (const query of [`?per_page=2&cursor=${cursor}`, `?per_page=1&reversed=true&cursor=${cursor}`]) {
      const { res, body } = await events(ip, query);
      expect(res.status).toBe(400);
      expect(String((body as { error: string }).error)).toMatch(/different host, start_time/);
    }
  });

  it.each([
    ["start_time", "?start_time=yesterday", 422, /Invalid start_time/],
    ["end_time", "?end_time=2024-05-01", 422, /Invalid end_time/],
    ["reversed", "?reversed=maybe", 400, /reversed/],
    ["per_page", "?per_page=51", 400, /per_page/],
    ["per_page", "?per_page=0", 400, /per_page/],
    ["cursor", "?cursor=junk", 400, /Invalid cursor/],
  ])("refuses a bad %s (%s)", async (_, query, status, message) => {
    const [host] = await hostFacts();
    const { res, body } = await events(host!.ip, query);
    expect(res.status).toBe(status);
    expect(v2ErrorSchema.parse(body).code).toBe(status);
    expect(String((body as { error: string }).error)).toMatch(message);
  });

  it("answers 422 for an invalid IP and 404 for an unknown host", async () => {
    const bad = await events("not-an-ip");
    expect(bad.res.status).toBe(422);
    expect(String((bad.body as { error: string }).error)).toMatch(/Invalid IP address/);
    const unknown = await events("10.255.255.254");
    expect(unknown.res.status).toBe(404);
    expect(v2ErrorSchema.parse(unknown.body)).toMatchObject({ code: 404, status: "Not Found" });
  });
});
