import { env } from "cloudflare:workers";
import {
  rawResultDetailsSchema,
  rawSeriesDetailsSchema,
  rawSeriesListSchema,
  type RawResultDetails,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { call, getJson } from "./support/requests";

beforeAll(() => seedTestDataset());

const PAGE_NOT_FOUND = { error_code: 404, error: "page not found" };

/** Days of the seeded host history, computed here from the rows (UTC, `YYYYMMDD`). */
async function historyDays(): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT valid_from FROM host_history").all<{
    valid_from: number;
  }>();
  const day = 86_400_000;
  const first = Math.min(...results.map((r) => r.valid_from));
  // Through the seed day: the dataset's latest snapshot is the day it was seeded.
  const last = Math.max(...results.map((r) => r.valid_from), Date.parse(env.TEST_DATASET.summary.day));
  const days: string[] = [];
  for (let t = Math.floor(first / day) * day; t <= last; t += day)
    days.push(new Date(t).toISOString().slice(0, 10).replaceAll("-", ""));
  return days;
}

/** Host documents valid at the end of `day`, from the history rows. */
async function hostsAtEndOf(day: string): Promise<{ ip: string; doc: string }[]> {
  const at =
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6))) + 86_400_000 - 1;
  const { results } = await env.DB.prepare("SELECT ip, valid_from, valid_to, doc FROM host_history").all<{
    ip: string;
    valid_from: number;
    valid_to: number | null;
    doc: string;
  }>();
  return results
    .filter((r) => r.valid_from <= at && (r.valid_to === null || r.valid_to > at))
    .sort((a, b) => (a.ip < b.ip ? -1 : 1));
}

function path(url: string): string {
  return new URL(url).pathname;
}

/** The body as UTF-8 text (Response.text() warns on non-text media types such as NDJSON). */
async function bodyText(res: Response): Promise<string> {
  return new TextDecoder().decode(await res.arrayBuffer());
}

async function sha256(bytes: ArrayBuffer): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}

describe("GET /api/v1/data", () => {
  it("lists the primary and raw series with every field, pointing at routes that answer", async () => {
    const { res, body } = await getJson("/api/v1/data");
    expect(res.status).toBe(200);
    const list = rawSeriesListSchema.parse(body);
    const days = await historyDays();
    expect(Object.keys(list.primary_series)).toEqual(["ipv4"]);
    expect(Object.keys(list.raw_series).length).toBeGreaterThan(3);
    for (const [id, series] of [...Object.entries(list.primary_series), ...Object.entries(list.raw_series)]) {
      expect(series.id).toBe(id);
      expect(series.latest_result.name).toBe(`${days.at(-1)}T2359`);
      expect(series.latest_result.timestamp).toBe(`${days.at(-1)}T235959`);
      expect((await call("GET", path(series.details_url))).status).toBe(200);
      expect((await call("GET", path(series.latest_result.details_url))).status).toBe(200);
    }
    expect(list.raw_series["22-ssh-banner-full_ipv4"]).toMatchObject({
      protocol: "ssh",
      subprotocol: "banner",
      destination: "full_ipv4",
      port: 22,
    });
  });
});

describe("GET /api/v1/data/:series", () => {
  it("lists one result per day of history, oldest first, and the latest", async () => {
    const { res, body } = await getJson("/api/v1/data/443-https-tls-full_ipv4");
    expect(res.status).toBe(200);
    const details = rawSeriesDetailsSchema.parse(body);
    const days = await historyDays();
    expect(details.results.historical.map((r) => r.id)).toEqual(days.map((d) => `${d}T2359`));
    expect(details.results.latest).toEqual(details.results.historical.at(-1));
    expect(details).toMatchObject({ id: "443-https-tls-full_ipv4", protocol: "https", port: 443 });
  });

  it("describes the primary series as every protocol's snapshot on every port", async () => {
    const { res, body } = await getJson("/api/v1/data/ipv4");
    expect(res.status).toBe(200);
    const details = rawSeriesDetailsSchema.parse(body);
    expect(details).toMatchObject({
      id: "ipv4",
      name: "IPv4 Snapshots",
      protocol: "all",
      subprotocol: "snapshot",
      destination: "full_ipv4",
      port: 0,
    });
    expect(details.results.historical.map((r) => r.id)).toEqual(
      (await historyDays()).map((d) => `${d}T2359`),
    );
    const list = await getJson("/api/v1/data");
    const entry = (list.body as { primary_series: Record<string, object> }).primary_series.ipv4;
    expect(Object.keys(entry ?? {}).sort()).toEqual([
      "description",
      "details_url",
      "id",
      "latest_result",
      "name",
    ]);
  });

  it("answers 404 for an unknown series", async () => {
    const res = await call("GET", "/api/v1/data/no-such-series");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(PAGE_NOT_FOUND);
  });
});

describe("GET /api/v1/data/:series/:result", () => {
  async function result(series: string, id: string): Promise<RawResultDetails> {
    const { res, body } = await getJson(`/api/v1/data/${series}/${id}`);
    expect(res.status).toBe(200);
    return rawResultDetailsSchema.parse(body);
  }

  it("publishes files that exist, download, and hash to the published SHA-256 and size", async () => {
    const days = await historyDays();
    for (const series of ["ipv4", "22-ssh-banner-full_ipv4", "443-https-tls-full_ipv4"]) {
      for (const day of [days[0]!, days.at(-1)!]) {
        const details = await result(series, `${day}T2359`);
        expect(details.timestamp).toBe(`${day}T235959`);
        expect(Object.keys(details.files).length).toBeGreaterThan(0);
        for (const file of Object.values(details.files)) {
          const res = await call("GET", path(file.download_path));
          expect(res.status).toBe(200);
          const bytes = await res.arrayBuffer();
          expect(bytes.byteLength).toBe(file.size);
          expect(await sha256(bytes)).toBe(file.sha256_fingerprint);
        }
      }
    }
  });

  it("gives the primary series the host documents valid at the end of the day, one per line", async () => {
    const days = await historyDays();
    for (const day of [days[0]!, days.at(-1)!]) {
      const details = await result("ipv4", `${day}T2359`);
      const file = details.files.hosts!;
      expect(file).toMatchObject({ file_type: "json", schema: null });
      const text = await bodyText(await call("GET", path(file.download_path)));
      expect(text).toBe((await hostsAtEndOf(day)).map((h) => `${h.doc}\n`).join(""));
    }
  });

  it("gives a raw series a CSV of the port's services with its schema, and the full records", async () => {
    const day = (await historyDays()).at(-1)!;
    const details = await result("22-ssh-banner-full_ipv4", `${day}T2359`);
    expect(details.files.services).toMatchObject({
      file_type: "csv",
      schema: { ip: { type: "string" }, port: { type: "integer" } },
    });
    const expected = (await hostsAtEndOf(day)).flatMap((h) =>
      (JSON.parse(h.doc) as { services: { port: number }[] }).services
        .filter((s) => s.port === 22)
        .map((s) => ({ ip: h.ip, ...s })),
    );
    expect(expected.length).toBeGreaterThan(0);
    const csv = await bodyText(await call("GET", path(details.files.services!.download_path)));
    const lines = csv.split("\r\n").filter((l) => l !== "");
    expect(lines[0]).toBe(
      "ip,port,transport_protocol,service_name,extended_service_name,certificate,observed_at",
    );
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2))).toEqual(expected.map((s) => [s.ip, "22"]));
    const json = await bodyText(await call("GET", path(details.files.results!.download_path)));
    expect(
      json
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(expected);
  });

  it("publishes the same fingerprint on every request", async () => {
    const day = (await historyDays())[0]!;
    const first = await result("80-http-get-full_ipv4", `${day}T2359`);
    const second = await result("80-http-get-full_ipv4", `${day}T2359`);
    expect(second).toEqual(first);
  });

  it("answers 404 for an unknown series, a result outside the history, a malformed result, an unknown file", async () => {
    const day = (await historyDays())[0]!;
    for (const url of [
      `/api/v1/data/nope/${day}T2359`,
      "/api/v1/data/ipv4/19990101T2359",
      "/api/v1/data/ipv4/latest",
      `/api/v1/data/ipv4/${day}T0000`,
      `/api/v1/data/ipv4/${day}T2359/files/nope`,
      `/api/v1/data/ipv4/19990101T2359/files/hosts`,
    ]) {
      const res = await call("GET", url);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual(PAGE_NOT_FOUND);
    }
  });
});
