import { env } from "cloudflare:workers";
import { EXPORT_FILE_RETENTION_MS, exportJobSchema, v1ErrorSchema, type ExportJob } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { gzipBound } from "../src/exports/splitter";
import { endOfDay } from "../src/snapshots/build";
import { readSnapshotSources } from "../src/snapshots/publish";
import {
  databaseState,
  harness,
  publishedDays,
  seedDatasetAndSnapshots,
  type Harness,
} from "./snapshots-fixture";
import { basicAuth } from "./support/requests";

beforeAll(() => seedDatasetAndSnapshots(2));

interface ServiceDoc {
  port: number;
  service_name: string;
  software?: { product?: string }[];
}

interface HostDoc {
  ip: string;
  location: { country_code: string; continent: string; coordinates?: { latitude: number } };
  autonomous_system?: { asn: number };
  services: ServiceDoc[];
}

interface CertificateDoc {
  parsed: { fingerprint_sha256: string };
  "validation.nss.valid"?: boolean;
  validation?: { nss?: { valid?: boolean } };
}

async function latest() {
  const sources = await readSnapshotSources(env.DB);
  const day = (await publishedDays()).at(-1)!;
  const at = endOfDay(day);
  const hosts = sources.hostHistory
    .filter((row) => row.validFrom <= at && (row.validTo === null || row.validTo > at))
    .map((row) => JSON.parse(row.doc) as HostDoc)
    .sort((a, b) => (a.ip < b.ip ? -1 : 1));
  const certificates = sources.certificates
    .filter((c) => c.addedAt <= at)
    .map((c) => JSON.parse(c.doc) as CertificateDoc)
    .sort((a, b) => (a.parsed.fingerprint_sha256 < b.parsed.fingerprint_sha256 ? -1 : 1));
  return { ipv4: `ipv4.${day}`, certificates: `certificates.${day}`, hosts, certificateDocs: certificates };
}

/** A REPEATED value inside each service: the products of its software entries. */
const productsOf = (s: ServiceDoc) =>
  (s.software ?? []).map((entry) => entry.product).filter((p): p is string => typeof p === "string");

/** Each host's SSH services, one row per service, as `... WHERE services.service_name = 'SSH' ORDER BY ip, services.port` gives them. */
function sshServices(hosts: HostDoc[]): { host: HostDoc; service: ServiceDoc }[] {
  const rows = hosts.flatMap((host) =>
    host.services.filter((s) => s.service_name === "SSH").map((service) => ({ host, service })),
  );
  expect(rows.length).toBeGreaterThan(1);
  expect(rows.some(({ service }) => productsOf(service).length > 1)).toBe(true);
  return rows.sort((a, b) =>
    a.host.ip < b.host.ip ? -1 : a.host.ip > b.host.ip ? 1 : a.service.port - b.service.port,
  );
}

/** The CSV field of `text` with a comma delimiter (RFC 4180). */
const csvCell = (text: string) => (/[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

async function startExport(h: Harness, body: Record<string, unknown>): Promise<ExportJob> {
  const res = await h.fetch("POST", "/api/v1/export", body);
  expect(res.status).toBe(200);
  return exportJobSchema.parse(await res.json());
}

async function status(h: Harness, id: string): Promise<ExportJob & Record<string, unknown>> {
  const res = await h.fetch("GET", `/api/v1/export/${id}`);
  expect(res.status).toBe(200);
  const body = await res.json<Record<string, unknown>>();
  return { ...body, ...exportJobSchema.parse(body) };
}

async function download(h: Harness, url: string): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await h.fetch("GET", new URL(url).pathname);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** Runs an export to the end and returns its status and the text of each file. */
async function exportText(
  h: Harness,
  body: Record<string, unknown>,
): Promise<{ job: ExportJob; files: string[] }> {
  const started = await startExport(h, body);
  await h.deliver();
  const job = await status(h, started.job_id);
  expect(job.status, JSON.stringify(job)).toBe("success");
  const files: string[] = [];
  for (const url of job.download_paths ?? []) {
    const { res, bytes } = await download(h, url);
    expect(res.status).toBe(200);
    files.push(body.compress === true ? await gunzip(bytes) : new TextDecoder().decode(bytes));
  }
  return { job, files };
}

describe("POST /api/v1/export", () => {
  it("starts a pending job whose configuration shows the defaults, the delimiter null when unset", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const query = `SELECT ip FROM "${ipv4}"`;
    const job = await startExport(h, { query });
    expect(job.job_id).toMatch(/^job_[0-9a-f]{32}$/);
    expect(job).toEqual({
      status: "pending",
      job_id: job.job_id,
      configuration: { format: "csv", compress: false, headers: true, delimiter: null, flatten: true, query },
    });
    expect(h.queue.sent).toEqual([{ job_id: job.job_id }]);
    expect(await status(h, job.job_id)).toEqual({
      ...job,
      statistics: { backend_time: null, result_count: null },
    });
  });

  it("echoes every option, the request's `delimeter` as `delimiter`", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const body = {
      query: `SELECT ip FROM "${ipv4}"`,
      format: "json",
      flatten: false,
      compress: true,
      delimeter: ";",
      headers: false,
    };
    const job = await startExport(h, body);
    expect(job.configuration).toEqual({
      format: "json",
      compress: true,
      headers: false,
      delimiter: ";",
      flatten: false,
      query: body.query,
    });
  });

  it("refuses bad options with 400, queueing and storing nothing", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const query = `SELECT ip FROM "${ipv4}"`;
    const before = await databaseState();
    const bad = [
      { query, format: "xml" },
      { query, flatten: "yes" },
      { query, compress: 1 },
      { query, headers: "no" },
      { query, delimeter: "ab" },
      { query, delimeter: '"' },
      { query, delimeter: "\n" },
      { query, delimeter: "" },
      { format: "csv" },
      "not json",
    ];
    for (const body of bad) {
      const res = await h.fetch("POST", "/api/v1/export", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(400);
    }
    expect(h.queue.sent).toEqual([]);
    expect(await databaseState()).toEqual(before);
  });
});

describe("export formats", () => {
  it("writes CSV with a header row, REPEATED columns as quoted JSON arrays", async () => {
    const h = harness();
    const { ipv4, hosts } = await latest();
    const { job, files } = await exportText(h, {
      query: `SELECT ip, location.country_code, autonomous_system.asn, services.port, services.software.product
        FROM "${ipv4}" WHERE services.service_name = 'SSH' ORDER BY ip, services.port`,
    });
    const rows = sshServices(hosts);
    const expected =
      "ip,location_country_code,autonomous_system_asn,services_port,services_software_product\r\n" +
      rows
        .map(
          ({ host: d, service }) =>
            `${d.ip},${d.location.country_code},${d.autonomous_system?.asn ?? ""},${service.port},${csvCell(JSON.stringify(productsOf(service)))}\r\n`,
        )
        .join("");
    expect(files).toEqual([expected]);
    expect(job.statistics?.result_count).toBe(rows.length);
    expect(job.statistics?.backend_time).toBeGreaterThanOrEqual(0);
    expect(job.download_paths).toEqual([
      `http://origin.test/api/v1/export/${job.job_id}/files/${job.job_id}-001.csv`,
    ]);
  });

  it("escapes delimiters, quotes and line breaks, and keeps null apart from the empty string", async () => {
    const h = harness();
    const { ipv4, hosts } = await latest();
    const query = String.raw`SELECT ip, 'a,b' AS comma, 'a;b' AS semi, 'say "hi"' AS quote, 'one\ntwo' AS lf,
        'x\ry' AS cr, NULL AS nothing, '' AS empty FROM "${ipv4}" ORDER BY ip LIMIT 1`;
    const ip = hosts[0]!.ip;
    const comma = await exportText(h, { query });
    expect(comma.files).toEqual([
      "ip,comma,semi,quote,lf,cr,nothing,empty\r\n" +
        `${ip},"a,b",a;b,"say ""hi""","one\ntwo","x\ry",,""\r\n`,
    ]);
    const semicolon = await exportText(h, { query, delimeter: ";", headers: false });
    expect(semicolon.files).toEqual([`${ip};a,b;"a;b";"say ""hi""";"one\ntwo";"x\ry";;""\r\n`]);
    const tab = await exportText(h, { query, delimeter: "\t", headers: false });
    expect(tab.files).toEqual([`${ip}\ta,b\ta;b\t"say ""hi"""\t"one\ntwo"\t"x\ry"\t\t""\r\n`]);
  });

  it("writes CSV with flatten false as one column per top-level name, dotted names nested as JSON", async () => {
    const h = harness();
    const { ipv4, hosts } = await latest();
    const { files } = await exportText(h, {
      query: `SELECT ip, location.country_code AS \`location.country_code\`, location.continent AS \`location.continent\`,
          autonomous_system.asn AS \`autonomous_system.asn\` FROM "${ipv4}" ORDER BY ip`,
      flatten: false,
    });
    const quoted = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`;
    expect(files).toEqual([
      "ip,location,autonomous_system\r\n" +
        hosts
          .map(
            (d) =>
              `${d.ip},${quoted({ country_code: d.location.country_code, continent: d.location.continent })},${quoted({ asn: d.autonomous_system?.asn ?? null })}\r\n`,
          )
          .join(""),
    ]);
  });

  it("writes JSON lines with the columns' names as keys and typed values when flattened", async () => {
    const h = harness();
    const { ipv4, hosts } = await latest();
    const { files } = await exportText(h, {
      query: `SELECT ip, location.country_code, autonomous_system.asn, services.port, services.software.product,
          location.coordinates.latitude FROM "${ipv4}" WHERE services.service_name = 'SSH' ORDER BY ip, services.port`,
      format: "json",
    });
    expect(files).toHaveLength(1);
    const lines = files[0]!.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(
      sshServices(hosts).map(({ host: d, service }) => ({
        ip: d.ip,
        location_country_code: d.location.country_code,
        autonomous_system_asn: d.autonomous_system?.asn ?? null,
        services_port: service.port,
        services_software_product: productsOf(service),
        location_coordinates_latitude: d.location.coordinates?.latitude ?? null,
      })),
    );
  });

  const nssValid = (c: CertificateDoc) => c["validation.nss.valid"] ?? c.validation?.nss?.valid ?? null;

  it("writes JSON lines with dotted names nested and real booleans when not flattened", async () => {
    const h = harness();
    const { certificates, certificateDocs } = await latest();
    const { files } = await exportText(h, {
      query: `SELECT parsed.fingerprint_sha256 AS \`parsed.fingerprint_sha256\`, validation.nss.valid AS \`validation.nss.valid\`
          FROM "${certificates}" ORDER BY 1`,
      format: "json",
      flatten: false,
    });
    const records = files[0]!
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(records).toEqual(
      certificateDocs.map((c) => ({
        parsed: { fingerprint_sha256: c.parsed.fingerprint_sha256 },
        validation: { nss: { valid: nssValid(c) } },
      })),
    );
    expect(
      records.some((r) => (r as { validation: { nss: { valid: unknown } } }).validation.nss.valid === true),
    ).toBe(true);
  });

  it("nests selected nested fields when not flattened, as legacy SQL without flattening does", async () => {
    const h = harness();
    const { certificates, certificateDocs } = await latest();
    const { files } = await exportText(h, {
      query: `SELECT parsed.fingerprint_sha256, validation.nss.valid FROM "${certificates}" ORDER BY 1`,
      format: "json",
      flatten: false,
    });
    expect(files).toHaveLength(1);
    const records = files[0]!
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(records).toHaveLength(certificateDocs.length);
    expect(records).toEqual(
      certificateDocs.map((c) => ({
        parsed: { fingerprint_sha256: c.parsed.fingerprint_sha256 },
        validation: { nss: { valid: nssValid(c) } },
      })),
    );
  });

  it("gzips files when asked: same content, gzip media type, .gz name", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const query = `WITH hosts AS (SELECT ip, protocols FROM "${ipv4}") SELECT * FROM hosts ORDER BY ip, protocols`;
    for (const format of ["csv", "json"]) {
      const plain = await exportText(h, { query, format });
      const zipped = await exportText(h, { query, format, compress: true });
      expect(zipped.files).toEqual(plain.files);
      const url = zipped.job.download_paths![0]!;
      expect(url.endsWith(`.${format}.gz`)).toBe(true);
      const { res, bytes } = await download(h, url);
      expect(res.headers.get("Content-Type")).toBe("application/gzip");
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    }
  });
});

describe("export file splitting", () => {
  const LIMIT = 400;

  for (const [format, compress] of [
    ["csv", false],
    ["json", false],
    ["csv", true],
    ["json", true],
  ] as const) {
    it(`splits ${format}${compress ? " gzip" : ""} output so no stored file passes the size limit`, async () => {
      const h = harness({ EXPORT_FILE_MAX_BYTES: String(LIMIT) });
      const whole = harness();
      const { ipv4 } = await latest();
      const query = `SELECT a.ip, b.ip AS other, a.protocols FROM "${ipv4}" a
        JOIN "${ipv4}" b ON a.location.country = b.location.country ORDER BY 1, 2, 3 LIMIT 30`;
      const single = await exportText(whole, { query, format, compress });
      expect(single.files).toHaveLength(1);
      const split = await exportText(h, { query, format, compress });
      expect(split.files.length).toBeGreaterThan(2);
      expect(split.job.statistics?.result_count).toBe(single.job.statistics?.result_count);
      for (const url of split.job.download_paths!) {
        const { bytes } = await download(h, url);
        expect(bytes.byteLength).toBeLessThanOrEqual(LIMIT);
        expect(bytes.byteLength).toBeGreaterThan(0);
      }
      if (format === "csv") {
        const [header, ...rows] = single.files[0]!.split("\r\n");
        for (const file of split.files) expect(file.startsWith(`${header}\r\n`)).toBe(true);
        const joined = split.files.flatMap((f) => f.split("\r\n").slice(1));
        expect(joined.filter((l) => l !== "")).toEqual(rows.filter((l) => l !== ""));
      } else {
        expect(split.files.join("")).toEqual(single.files[0]);
      }
    });
  }

  it("keeps the gzip worst case within the limit for incompressible input", () => {
    // deflate's stored blocks add 5 bytes per 64 KiB; the bound allows far more.
    expect(gzipBound(65_535, 1)).toBeGreaterThan(65_535 + 5 + 18);
  });

  it("ends the job as error when one row is larger than the file size limit", async () => {
    const h = harness({ EXPORT_FILE_MAX_BYTES: "40" });
    const { ipv4 } = await latest();
    const started = await startExport(h, {
      query: `SELECT ip, protocols, location.country FROM "${ipv4}"`,
    });
    await h.deliver();
    const job = await status(h, started.job_id);
    expect(job.status).toBe("error");
    expect(job.error_message).toContain("larger than the export file size limit");
    expect(job).not.toHaveProperty("download_paths");
    expect((await env.EXPORTS.list({ prefix: `exports/${started.job_id}/` })).objects).toEqual([]);
  });
});

describe("export job lifecycle", () => {
  it("ends as error with the reason when the SQL fails at run time, keeping no file", async () => {
    const h = harness();
    const { ipv4, hosts } = await latest();
    // Plans (TIMESTAMP takes a STRING); no address is a timestamp once it runs.
    const started = await startExport(h, { query: `SELECT TIMESTAMP(ip) FROM "${ipv4}" ORDER BY ip` });
    await h.deliver();
    const job = await status(h, started.job_id);
    expect(job.status).toBe("error");
    expect(job.error_message).toBe(`Invalid timestamp: '${hosts[0]!.ip}'`);
    expect(job).not.toHaveProperty("error");
    expect(job).not.toHaveProperty("download_paths");
    expect((await env.EXPORTS.list({ prefix: `exports/${started.job_id}/` })).objects).toEqual([]);
  });

  it("ends as error when the result has more rows than an export may write, keeping no file", async () => {
    const h = harness({ EXPORT_MAX_ROWS: "2" });
    const { ipv4, hosts } = await latest();
    expect(hosts.length).toBeGreaterThan(2);
    const started = await startExport(h, { query: `SELECT ip FROM "${ipv4}"` });
    await h.deliver();
    const job = await status(h, started.job_id);
    expect(job.status).toBe("error");
    expect(job.error_message).toContain("the result has more than 2 rows");
    expect((await env.EXPORTS.list({ prefix: `exports/${started.job_id}/` })).objects).toEqual([]);
  });

  it("expires 24 hours after completion when the status is read: files gone, downloads 404", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const { job } = await exportText(h, { query: `SELECT ip FROM "${ipv4}"` });
    const url = job.download_paths![0]!;
    h.clock.advance(EXPORT_FILE_RETENTION_MS - 1);
    expect((await status(h, job.job_id)).status).toBe("success");
    expect((await download(h, url)).res.status).toBe(200);
    h.clock.advance(1);
    const expired = await status(h, job.job_id);
    expect(expired.status).toBe("expired");
    expect(expired).not.toHaveProperty("download_paths");
    expect((await env.EXPORTS.list({ prefix: `exports/${job.job_id}/` })).objects).toEqual([]);
    const gone = await download(h, url);
    expect(gone.res.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(gone.bytes))).toEqual({
      error_code: 404,
      error: "page not found",
    });
  });

  it("has the scheduled sweep expire due exports and delete their files, leaving fresh ones", async () => {
    const h = harness();
    const { ipv4 } = await latest();
    const old = await exportText(h, { query: `SELECT ip FROM "${ipv4}"` });
    h.clock.advance(EXPORT_FILE_RETENTION_MS / 2);
    const fresh = await exportText(h, { query: `SELECT ip FROM "${ipv4}"` });
    h.clock.advance(EXPORT_FILE_RETENTION_MS / 2);
    await h.scheduled();
    const rows = await env.DB.prepare("SELECT id, status FROM jobs WHERE id IN (?, ?) ORDER BY id = ?")
      .bind(old.job.job_id, fresh.job.job_id, old.job.job_id)
      .all();
    expect(rows.results).toEqual([
      { id: fresh.job.job_id, status: "success" },
      { id: old.job.job_id, status: "expired" },
    ]);
    expect((await env.EXPORTS.list({ prefix: `exports/${old.job.job_id}/` })).objects).toEqual([]);
    expect((await env.EXPORTS.list({ prefix: `exports/${fresh.job.job_id}/` })).objects).toHaveLength(1);
  });

  it("answers 404 for unknown jobs and files, a query job's id, and another account's export", async () => {
    const other = {
      api_id: "other-team",
      api_secret: "other-secret",
      login: "other",
      email: "o@x",
      allowance: 10,
    };
    const h = harness({
      ORIGIN_ACCOUNTS: JSON.stringify([...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), other]),
    });
    const { ipv4 } = await latest();
    const { job } = await exportText(h, { query: `SELECT ip FROM "${ipv4}"` });
    const queryStart = await h.fetch("POST", "/api/v1/query", { query: `SELECT ip FROM "${ipv4}"` });
    const queryId = (await queryStart.json<{ job_id: string }>()).job_id;
    const path = new URL(job.download_paths![0]!).pathname;
    const refusals: [string, string | undefined][] = [
      [`/api/v1/export/job_${"f".repeat(32)}`, undefined],
      [`/api/v1/export/${queryId}`, undefined],
      [`/api/v1/export/${job.job_id}/files/nope.csv`, undefined],
      [`/api/v1/export/${job.job_id}`, basicAuth(other.api_id, other.api_secret)],
      [path, basicAuth(other.api_id, other.api_secret)],
    ];
    for (const [url, auth] of refusals) {
      const res = await h.fetch("GET", url, undefined, auth);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({ error_code: 404, error: "page not found" });
    }
  });
});
