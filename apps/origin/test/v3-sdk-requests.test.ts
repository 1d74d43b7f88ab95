/**
 * Requests built exactly as the official TypeScript SDK (censys/censys-sdk-typescript 0.12.5,
 * `src/funcs/*.ts`) builds them, for every one of its 65 functions: the
 * same method, path (parameters percent-encoded), query (form-encoded in the SDK's key order,
 * arrays comma-joined as one parameter, dates as `toISOString()`, `organization_id` where the
 * SDK adds the client's option), headers (the operation's `Accept`, `Content-Type` for a body,
 * the SDK's `user-agent`, its empty `cookie`, the bearer token) and JSON body (snake_case).
 * Each answer must have the status and content type the SDK's success matcher asks for, and
 * parse with schemas equivalent to the SDK's models (test/support/sdk-models.ts). Operations
 * that create something feed the ids of what they made to the next ones, as a client would.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../src/app";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts, websiteDocs } from "./support/dataset-facts";
import * as sdk from "./support/sdk-models";
import { platformAccount, v3Call } from "./v3-requests";

/** `SDK_METADATA.userAgent` of the SDK (src/lib/config.ts). */
const SDK_USER_AGENT = "speakeasy-sdk/typescript 0.12.5 2.931.0 1.0.125 @censys/platform-sdk";

/** Every function of the SDK's `src/funcs` (0.12.5). */
const SDK_FUNCTIONS = [
  "accountManagementGetMemberCreditUsage",
  "accountManagementGetOrganizationCreditUsage",
  "accountManagementGetOrganizationCredits",
  "accountManagementGetOrganizationDetails",
  "accountManagementGetUserCredits",
  "accountManagementGetUserCreditsUsage",
  "accountManagementInviteUserToOrganization",
  "accountManagementListOrganizationMembers",
  "accountManagementRemoveOrganizationMember",
  "accountManagementUpdateOrganizationMember",
  "collectionsAggregate",
  "collectionsCreate",
  "collectionsDelete",
  "collectionsGet",
  "collectionsList",
  "collectionsListEvents",
  "collectionsSearch",
  "collectionsUpdate",
  "globalDataAggregate",
  "globalDataConvertLegacySearchQueries",
  "globalDataCreateTrackedScan",
  "globalDataGetCertificate",
  "globalDataGetCertificateRaw",
  "globalDataGetCertificates",
  "globalDataGetCertificatesRaw",
  "globalDataGetHost",
  "globalDataGetHostEnrichment",
  "globalDataGetHostTimeline",
  "globalDataGetHosts",
  "globalDataGetTrackedScan",
  "globalDataGetWebProperties",
  "globalDataGetWebProperty",
  "globalDataGetWebPropertyTimeline",
  "globalDataListDnsIpResolutionBounds",
  "globalDataListDnsIpResolutionRanges",
  "globalDataListDnsNameResolutionBounds",
  "globalDataListDnsNameResolutionRanges",
  "globalDataListServicesOnHost",
  "globalDataSearch",
  "tagsAndCommentsBulkCreateTagAssignments",
  "tagsAndCommentsBulkDeleteTagAssignments",
  "tagsAndCommentsCancelTagOperation",
  "tagsAndCommentsCreateComment",
  "tagsAndCommentsCreateTag",
  "tagsAndCommentsCreateTagAssignment",
  "tagsAndCommentsDeleteComment",
  "tagsAndCommentsDeleteTag",
  "tagsAndCommentsDeleteTagAssignment",
  "tagsAndCommentsGetTag",
  "tagsAndCommentsGetTagOperation",
  "tagsAndCommentsListComments",
  "tagsAndCommentsListTagAssignments",
  "tagsAndCommentsListTagOperations",
  "tagsAndCommentsListTags",
  "tagsAndCommentsUpdateComment",
  "tagsAndCommentsUpdateTag",
  "threatHuntingCreateCenseyeJob",
  "threatHuntingCreateTrackedScan",
  "threatHuntingGetCenseyeJob",
  "threatHuntingGetCenseyeJobResults",
  "threatHuntingGetHostObservationsWithCertificate",
  "threatHuntingGetTrackedScanThreatHunting",
  "threatHuntingListCenseyeJobs",
  "threatHuntingListThreats",
  "threatHuntingValueCounts",
] as const;
type SdkFunction = (typeof SDK_FUNCTIONS)[number];

const JSON_TYPE = "application/json";
const HOST = "application/vnd.censys.api.v3.host.v1+json";
const TIMELINE = "application/vnd.censys.api.v3.host_timeline_event.v1+json";
const CERT = "application/vnd.censys.api.v3.certificate.v1+json";
const WEB = "application/vnd.censys.api.v3.webproperty.v1+json";
const WEB_TIMELINE = "application/vnd.censys.api.v3.web_timeline_event.v1+json";
const ENRICHMENT = "application/vnd.censys.api.v3.host-enrichment.v1+json";
const TRACKED_SCAN = "application/vnd.censys.api.v3.trackedscan.v1+json";
const PEM = "application/x-pem-file";
/** The `Accept` of the SDK's functions whose success carries no body (`M.nil`). */
const NIL_ACCEPT = "application/json;q=1, application/problem+json;q=0";

interface SdkCall {
  fn: SdkFunction;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The SDK's path template, and the values of its parameters. */
  template: string;
  params?: Record<string, string>;
  /** The query the function encodes, in its key order (undefined values are left out). */
  query?: [string, unknown][];
  accept: string;
  body?: unknown;
  /** The status of the SDK's success matcher. */
  status: number;
  /** The `ctype` its success matcher wants; null for `M.nil` (any, body ignored). */
  ctype: string | null;
  /** The schema of the envelope's `result` (null: a PEM stream or no body). */
  result: z.ZodType | null;
}

/** `encodeFormQuery(..., { explode: false })` of src/lib/encodings.ts. */
function encodeQuery(query: [string, unknown][]): string {
  const text = (value: unknown) =>
    encodeURIComponent(value instanceof Date ? value.toISOString() : String(value));
  return query
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => {
      const encoded = Array.isArray(value) ? value.map(text).join(encodeURIComponent(",")) : text(value);
      return `${encodeURIComponent(key)}=${encoded}`;
    })
    .join("&");
}

/** `pathToFunc` with `encodeSimple(..., { charEncoding: "percent" })`. */
function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/** `matchContentType` of src/lib/http.ts (type equal, or a wildcard; parameters a superset). */
function sdkMatchesContentType(response: Response, pattern: string): boolean {
  const got = (response.headers.get("content-type") ?? "application/octet-stream").toLowerCase().trim();
  const [gotType = "", ...gotParams] = got.split(/\s*;\s*/);
  const [wantType = "", ...wantParams] = pattern
    .toLowerCase()
    .trim()
    .split(/\s*;\s*/);
  const [type, subtype] = gotType.split("/");
  if (!type || !subtype) return false;
  if (wantType !== "*/*" && gotType !== wantType && `${type}/*` !== wantType && `*/${subtype}` !== wantType)
    return false;
  return wantParams.every((param) => gotParams.includes(param));
}

// ---- the worker, with a second member in the organization and a clock the test moves ----

const account = platformAccount();
const org = account.organization_id;
const second = {
  api_id: "sdk-second",
  api_secret: "sdk-second-secret",
  login: "second",
  email: "second@scangate.test",
  allowance: 10,
  personal_access_token: "sdk-second-member-personal-access-token",
  organization_id: org,
  user_id: "sdk-second-user",
};
let now = Date.now();
const app = createApp({ clock: { now: () => now } });
const harness = {
  ...env,
  ORIGIN_ACCOUNTS: JSON.stringify([...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), second]),
};
const fetcher = (request: Request) => Promise.resolve(app.fetch(request, harness, createExecutionContext()));

const exercised = new Set<SdkFunction>();

/** Sends one call as the SDK would and checks the answer as its matchers do; returns `result`. */
async function send<T = unknown>(call: SdkCall): Promise<T> {
  const query = encodeQuery(call.query ?? []);
  const headers: Record<string, string> = {};
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  headers.Accept = call.accept;
  headers.Authorization = `Bearer ${account.personal_access_token}`;
  headers.cookie = "";
  headers["user-agent"] = SDK_USER_AGENT;
  const path = `${buildPath(call.template, call.params)}${query ? `?${query}` : ""}`;
  const res = await v3Call(call.method, path, {
    token: null,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    fetcher,
  });
  // Decoded from bytes: Response.text() warns on a PEM file.
  const text = new TextDecoder().decode(await res.arrayBuffer());
  expect(res.status, `${call.fn}: ${text.slice(0, 500)}`).toBe(call.status);
  exercised.add(call.fn);
  if (call.ctype === null) {
    expect(text, call.fn).toBe("");
    return undefined as T;
  }
  expect(sdkMatchesContentType(res, call.ctype), `${call.fn}: ${res.headers.get("content-type")}`).toBe(true);
  if (call.result === null) return text as T;
  const parsed = z.object({ result: call.result }).safeParse(JSON.parse(text));
  expect(parsed.success ? "ok" : z.prettifyError(parsed.error), call.fn).toBe("ok");
  return (parsed.success ? parsed.data.result : undefined) as T;
}

const orgQuery: [string, unknown][] = [["organization_id", org]];

beforeAll(() => seedTestDataset());

describe("requests built as the official TypeScript SDK builds them", () => {
  it("global data: assets, timelines, service history and enrichment", async () => {
    const hosts = await hostFacts();
    const telnetHost =
      hosts.find((h) => h.doc.services.some((s) => s.service_name === "TELNET")) ?? hosts[0]!;
    const rdpHost = hosts.find((h) => h.doc.services.some((s) => s.service_name === "RDP")) ?? hosts[1]!;
    const certs = await certificateDocs();
    const withScts =
      certs.find((c) => JSON.stringify(c.doc.parsed).includes("signed_certificate_timestamps")) ?? certs[0]!;
    const site = ((await websiteDocs()) as { domain: string; doc: { ports: number[] } }[]).find((s) =>
      s.doc.ports.includes(443),
    )!;
    const first = await env.DB.prepare("select min(valid_from) as first from host_history where ip = ?")
      .bind(telnetHost.ip)
      .first<{ first: number }>();
    const atTime = new Date(first!.first + 60_000);
    const presented = hosts
      .flatMap((h) => h.doc.services as { certificate?: string }[])
      .find((service) => service.certificate !== undefined)?.certificate;
    const hostPath = "/v3/global/asset/host/{host_id}";
    await send({
      fn: "globalDataGetHost",
      method: "GET",
      template: hostPath,
      params: { host_id: telnetHost.ip },
      query: [["at_time", undefined], ...orgQuery],
      accept: HOST,
      status: 200,
      ctype: HOST,
      result: sdk.asset(sdk.sdkHost),
    });
    await send({
      fn: "globalDataGetHost",
      method: "GET",
      template: hostPath,
      params: { host_id: rdpHost.ip },
      query: [["at_time", new Date()], ...orgQuery],
      accept: HOST,
      status: 200,
      ctype: HOST,
      result: sdk.asset(sdk.sdkHost),
    });
    await send({
      fn: "globalDataGetHosts",
      method: "POST",
      template: "/v3/global/asset/host",
      query: orgQuery,
      accept: HOST,
      body: { at_time: atTime.toISOString(), host_ids: [telnetHost.ip, rdpHost.ip, "192.0.2.1"] },
      status: 200,
      ctype: HOST,
      result: z.array(sdk.asset(sdk.sdkHost)).nullable(),
    });
    await send({
      fn: "globalDataGetHostTimeline",
      method: "GET",
      template: `${hostPath}/timeline`,
      params: { host_id: telnetHost.ip },
      query: [["end_time", new Date("2025-01-01T00:00:00Z")], ...orgQuery, ["start_time", new Date()]],
      accept: TIMELINE,
      status: 200,
      ctype: TIMELINE,
      result: sdk.sdkTimeline,
    });
    const services = await send<z.infer<typeof sdk.sdkServicesOnHost>>({
      fn: "globalDataListServicesOnHost",
      method: "GET",
      template: `${hostPath}/observations/services`,
      params: { host_id: telnetHost.ip },
      query: [
        ["end_time", undefined],
        ["order_by", ["port DESC", "protocol ASC"]],
        ...orgQuery,
        ["page_size", 50],
        ["page_token", undefined],
        ["port", undefined],
        ["protocol", undefined],
        ["start_time", undefined],
        ["transport_protocol", "tcp"],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkServicesOnHost,
    });
    expect(services.ranges?.length).toBeGreaterThan(0);
    await send({
      fn: "globalDataGetHostEnrichment",
      method: "GET",
      template: "/v3/global/asset/enrichment/host/{host_ip}",
      params: { host_ip: telnetHost.ip },
      query: orgQuery,
      accept: ENRICHMENT,
      status: 200,
      ctype: ENRICHMENT,
      result: sdk.sdkHostEnrichmentAsset,
    });
    const certPath = "/v3/global/asset/certificate/{certificate_id}";
    await send({
      fn: "globalDataGetCertificate",
      method: "GET",
      template: certPath,
      params: { certificate_id: withScts.sha256 },
      query: orgQuery,
      accept: CERT,
      status: 200,
      ctype: CERT,
      result: sdk.asset(sdk.sdkCertificate),
    });
    const pem = await send<string>({
      fn: "globalDataGetCertificateRaw",
      method: "GET",
      template: `${certPath}/raw`,
      params: { certificate_id: withScts.sha256 },
      query: orgQuery,
      accept: PEM,
      status: 200,
      ctype: PEM,
      result: null,
    });
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
    await send({
      fn: "globalDataGetCertificates",
      method: "POST",
      template: "/v3/global/asset/certificate",
      query: orgQuery,
      accept: CERT,
      body: { certificate_ids: certs.slice(0, 20).map((c) => c.sha256) },
      status: 200,
      ctype: CERT,
      result: z.array(sdk.asset(sdk.sdkCertificate)).nullable(),
    });
    await send({
      fn: "globalDataGetCertificatesRaw",
      method: "POST",
      template: "/v3/global/asset/certificate/raw",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { certificate_ids: [certs[0]!.sha256, certs[1]!.sha256] },
      status: 200,
      ctype: JSON_TYPE,
      result: z.array(z.object({ certificate_id: z.string(), pem: z.string() })).nullable(),
    });
    const webPath = "/v3/global/asset/webproperty/{webproperty_id}";
    await send({
      fn: "globalDataGetWebProperty",
      method: "GET",
      template: webPath,
      params: { webproperty_id: `${site.domain}:443` },
      query: [["at_time", undefined], ...orgQuery],
      accept: WEB,
      status: 200,
      ctype: WEB,
      result: sdk.asset(sdk.sdkWebproperty),
    });
    await send({
      fn: "globalDataGetWebProperties",
      method: "POST",
      template: "/v3/global/asset/webproperty",
      query: orgQuery,
      accept: WEB,
      body: { webproperty_ids: [`${site.domain}:443`, `${telnetHost.ip}:80`] },
      status: 200,
      ctype: WEB,
      result: z.array(sdk.asset(sdk.sdkWebproperty)).nullable(),
    });
    await send({
      fn: "globalDataGetWebPropertyTimeline",
      method: "GET",
      template: `${webPath}/timeline`,
      params: { webproperty_id: `${site.domain}:443` },
      query: [["end_time", new Date("2025-01-01T00:00:00Z")], ...orgQuery, ["start_time", new Date()]],
      accept: WEB_TIMELINE,
      status: 200,
      ctype: WEB_TIMELINE,
      result: sdk.sdkWebpropertyTimeline,
    });
    const observations = await send<z.infer<typeof sdk.sdkHostObservations>>({
      fn: "threatHuntingGetHostObservationsWithCertificate",
      method: "GET",
      template: "/v3/threat-hunting/certificate/{certificate_id}/observations/hosts",
      params: { certificate_id: presented ?? withScts.sha256 },
      query: [
        ["end_time", undefined],
        ...orgQuery,
        ["page_size", 100],
        ["page_token", undefined],
        ["port", undefined],
        ["protocol", undefined],
        ["start_time", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkHostObservations,
    });
    expect(observations.total_results).toBe(observations.ranges?.length ?? 0);
  });

  it("global data: search, aggregate and convert", async () => {
    const search = (body: unknown) =>
      send({
        fn: "globalDataSearch",
        method: "POST",
        template: "/v3/global/search/query",
        query: orgQuery,
        accept: JSON_TYPE,
        body,
        status: 200,
        ctype: JSON_TYPE,
        result: sdk.sdkSearchQueryResponse,
      });
    await search({
      query: "host.services: (protocol=SSH and not port: 22)",
      fields: ["host.ip"],
      page_size: 1,
    });
    await search({ query: "web.hostname: *", page_size: 5 });
    await send({
      fn: "globalDataAggregate",
      method: "POST",
      template: "/v3/global/search/aggregate",
      query: orgQuery,
      accept: JSON_TYPE,
      body: {
        field: "host.services.port",
        filter_by_query: false,
        number_of_buckets: 100,
        query: "host.services.protocol=SSH",
      },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkSearchAggregateResponse,
    });
    await send({
      fn: "globalDataConvertLegacySearchQueries",
      method: "POST",
      template: "/v3/global/search/convert",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { queries: ["services.service_name: SSH", "services.port: ("] },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkSearchConvertResponse,
    });
  });

  it("global data: DNS resolutions by IP and by name", async () => {
    const [host] = (await hostFacts()).filter((h) => h.doc.services.some((s) => "certificate" in s));
    const window: [string, unknown][] = [
      ["end_time", undefined],
      ...orgQuery,
      ["page_size", 100],
      ["page_token", undefined],
    ];
    const byIp = (fn: SdkFunction, kind: string, extra: [string, unknown][]) =>
      send<z.infer<typeof sdk.sdkDnsIpResolutions>>({
        fn,
        method: "GET",
        template: `/v3/global/dns/resolutions/ip/{ip}/${kind}`,
        params: { ip: host!.ip },
        query: [...extra, ...window, ["record_types", ["A", "AAAA"]], ["start_time", undefined]],
        accept: JSON_TYPE,
        status: 200,
        ctype: JSON_TYPE,
        result: sdk.sdkDnsIpResolutions,
      });
    const bounds = await byIp("globalDataListDnsIpResolutionBounds", "bounds", []);
    const ranges = await byIp("globalDataListDnsIpResolutionRanges", "ranges", [["domain", undefined]]);
    expect(ranges.records?.length).toBeGreaterThanOrEqual(bounds.records?.length ?? 0);
    const name = bounds.records?.[0]?.domain;
    expect(name).toBeDefined();
    const byName = (fn: SdkFunction, kind: string, schema: z.ZodType) =>
      send({
        fn,
        method: "GET",
        template: `/v3/global/dns/resolutions/{name}/${kind}`,
        params: { name: name! },
        query: [
          ...window,
          ["record_types", ["A", "AAAA", "MX"]],
          ["start_time", new Date(Date.now() - 200 * 86_400_000)],
        ],
        accept: JSON_TYPE,
        status: 200,
        ctype: JSON_TYPE,
        result: schema,
      });
    await byName("globalDataListDnsNameResolutionBounds", "bounds", sdk.sdkDnsNameBounds);
    await byName("globalDataListDnsNameResolutionRanges", "ranges", sdk.sdkDnsNameRanges);
  });

  it("scans: a rescan and a discovery, each read back at both status paths", async () => {
    const host = (await hostFacts())[0]!;
    const service = host.doc.services[0]!;
    const rescan = await send<z.infer<typeof sdk.sdkTrackedScan>>({
      fn: "globalDataCreateTrackedScan",
      method: "POST",
      template: "/v3/global/scans/rescan",
      query: orgQuery,
      accept: JSON_TYPE,
      body: {
        target: {
          service_id: {
            ip: host.ip,
            port: service.port,
            protocol: service.service_name,
            transport_protocol: service.transport_protocol.toLowerCase(),
          },
        },
      },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTrackedScan,
    });
    const discovery = await send<z.infer<typeof sdk.sdkTrackedScan>>({
      fn: "threatHuntingCreateTrackedScan",
      method: "POST",
      template: "/v3/threat-hunting/scans/discovery",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { target: { host_port: { ip: host.ip, port: 65000 } } },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTrackedScan,
    });
    now += 10_000;
    const status = (fn: SdkFunction, template: string, id: string | undefined) =>
      send<z.infer<typeof sdk.sdkTrackedScan>>({
        fn,
        method: "GET",
        template,
        params: { scan_id: id ?? "" },
        query: orgQuery,
        accept: TRACKED_SCAN,
        status: 200,
        ctype: TRACKED_SCAN,
        result: sdk.sdkTrackedScan,
      });
    const done = await status(
      "globalDataGetTrackedScan",
      "/v3/global/scans/{scan_id}",
      rescan.tracked_scan_id,
    );
    expect(done).toMatchObject({ completed: true, tasks: [{ status: "completed" }] });
    const missed = await status(
      "threatHuntingGetTrackedScanThreatHunting",
      "/v3/threat-hunting/scans/{scan_id}",
      discovery.tracked_scan_id,
    );
    expect(missed).toMatchObject({ completed: true, tasks: [{ status: "timed_out" }] });
  });

  it("threat hunting: a CensEye job, its results and the job list; value counts", async () => {
    const host = (await hostFacts())[0]!;
    const job = await send<z.infer<typeof sdk.sdkCenseyeJob>>({
      fn: "threatHuntingCreateCenseyeJob",
      method: "POST",
      template: "/v3/threat-hunting/censeye/jobs",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { target: { host_id: host.ip } },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCenseyeJob,
    });
    now += 5_000;
    const jobPath = "/v3/threat-hunting/censeye/jobs/{job_id}";
    const read = await send<z.infer<typeof sdk.sdkCenseyeJob>>({
      fn: "threatHuntingGetCenseyeJob",
      method: "GET",
      template: jobPath,
      params: { job_id: job.job_id },
      query: orgQuery,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCenseyeJob,
    });
    expect(read.state).toBe("completed");
    const results = await send<z.infer<typeof sdk.sdkCenseyeResults>>({
      fn: "threatHuntingGetCenseyeJobResults",
      method: "GET",
      template: `${jobPath}/results`,
      params: { job_id: job.job_id },
      query: [...orgQuery, ["page_size", 100], ["page_token", undefined]],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCenseyeResults,
    });
    expect(results.results?.length).toBe(read.result_count);
    await send({
      fn: "threatHuntingListCenseyeJobs",
      method: "GET",
      template: "/v3/threat-hunting/censeye/jobs",
      query: [
        ["certificate_id", undefined],
        ["host_id", host.ip],
        ...orgQuery,
        ["page_size", 10],
        ["page_token", undefined],
        ["webproperty_id", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCenseyeJobs,
    });
    const counts = await send<z.infer<typeof sdk.sdkValueCounts>>({
      fn: "threatHuntingValueCounts",
      method: "POST",
      template: "/v3/threat-hunting/value-counts",
      query: orgQuery,
      accept: JSON_TYPE,
      body: {
        and_count_conditions: [
          {
            field_value_pairs: [
              { field: "host.services.port", value: "22" },
              { field: "host.services.protocol", value: "SSH" },
            ],
          },
          {
            field_value_pairs: [
              { field: "host.location.country", value: String(host.doc.location?.country) },
            ],
          },
        ],
        query: "host.services.port: *",
      },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkValueCounts,
    });
    expect(counts.and_count_results).toHaveLength(2);
  });

  it("threat hunting: the threats list, whole and narrowed by a query", async () => {
    const call = (query: string | undefined): SdkCall => ({
      fn: "threatHuntingListThreats",
      method: "GET",
      template: "/v3/threat-hunting/threats",
      query: [...orgQuery, ["query", query]],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkThreatsList,
    });
    const all = await send<z.infer<typeof sdk.sdkThreatsList>>(call("*"));
    const hosts = await hostFacts();
    const threatened = hosts.filter((h) =>
      h.doc.services.some((s) => ((s as { threats?: unknown[] }).threats ?? []).length > 0),
    );
    expect(all.threats?.reduce((sum, t) => sum + t.host_count, 0)).toBeGreaterThanOrEqual(threatened.length);
    const one = await send<z.infer<typeof sdk.sdkThreatsList>>(call(`host.ip = "${threatened[0]!.ip}"`));
    expect(one.threats?.every((t) => t.host_count === 1 && t.web_count === 0)).toBe(true);
    expect(one.threats?.length).toBeGreaterThan(0);
  });

  it("collections: create, list, get, update, events, search, aggregate, delete", async () => {
    const base = "/v3/collections";
    const made = await send<z.infer<typeof sdk.sdkCollection>>({
      fn: "collectionsCreate",
      method: "POST",
      template: base,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { description: "SSH hosts", name: "SDK collection", query: "host.services.protocol=SSH" },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCollection,
    });
    expect(made.total_assets).toBeGreaterThan(0);
    await send({
      fn: "collectionsList",
      method: "GET",
      template: base,
      query: [
        ["collection_statuses", ["active", "paused"]],
        ...orgQuery,
        ["page_size", 10],
        ["page_token", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCollectionList,
    });
    const one = { collection_uid: made.id };
    await send({
      fn: "collectionsGet",
      method: "GET",
      template: `${base}/{collection_uid}`,
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCollection,
    });
    await send({
      fn: "collectionsUpdate",
      method: "PUT",
      template: `${base}/{collection_uid}`,
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: {
        description: "SSH on 22",
        name: "SDK collection",
        query: "host.services: (protocol=SSH and port=22)",
      },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCollection,
    });
    const events = await send<z.infer<typeof sdk.sdkCollectionEvents>>({
      fn: "collectionsListEvents",
      method: "GET",
      template: `${base}/{collection_uid}/events`,
      params: one,
      query: [
        ["asset_change_types", ["added", "removed"]],
        ["change_types", ["asset", "status"]],
        ["end_time", new Date(now + 1000)],
        ...orgQuery,
        ["page_size", 100],
        ["page_token", undefined],
        ["start_time", new Date(now - 86_400_000)],
        ["status_change_types", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCollectionEvents,
    });
    expect(events.events?.length).toBeGreaterThan(0);
    await send({
      fn: "collectionsSearch",
      method: "POST",
      template: `${base}/{collection_uid}/search/query`,
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { fields: ["host.ip", "host.services.port"], page_size: 5, query: "host.services.port: *" },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkSearchQueryResponse,
    });
    await send({
      fn: "collectionsAggregate",
      method: "POST",
      template: `${base}/{collection_uid}/search/aggregate`,
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { field: "host.location.country", filter_by_query: false, number_of_buckets: 10, query: "" },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkSearchAggregateResponse,
    });
    await send({
      fn: "collectionsDelete",
      method: "DELETE",
      template: `${base}/{collection_uid}`,
      params: one,
      query: orgQuery,
      accept: NIL_ACCEPT,
      status: 204,
      ctype: null,
      result: null,
    });
  });

  it("tags: create, list, get, update, assignments, bulk operations, delete", async () => {
    const hosts = await hostFacts();
    const tag = await send<z.infer<typeof sdk.sdkTag>>({
      fn: "tagsAndCommentsCreateTag",
      method: "POST",
      template: "/v3/tags",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { description: "hosts to watch", name: "SDK tag", privacy: "shared" },
      status: 201,
      ctype: JSON_TYPE,
      result: sdk.sdkTag,
    });
    await send({
      fn: "tagsAndCommentsListTags",
      method: "GET",
      template: "/v3/tags",
      query: [
        ["created_by", undefined],
        ["name", undefined],
        ["order_by", "name_asc"],
        ...orgQuery,
        ["page_size", 50],
        ["page_token", undefined],
        ["privacy", "shared"],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTagsList,
    });
    const one = { tag_id: tag.id };
    await send({
      fn: "tagsAndCommentsGetTag",
      method: "GET",
      template: "/v3/tags/{tag_id}",
      params: { tag_id: "SDK tag" },
      query: orgQuery,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTag,
    });
    await send({
      fn: "tagsAndCommentsUpdateTag",
      method: "PUT",
      template: "/v3/tags/{tag_id}",
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { description: "hosts we watch" },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTag,
    });
    const assignment = await send<z.infer<typeof sdk.sdkTagAssignment>>({
      fn: "tagsAndCommentsCreateTagAssignment",
      method: "POST",
      template: "/v3/tags/{tag_id}/assignments",
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { asset_id: hosts[0]!.ip },
      status: 201,
      ctype: JSON_TYPE,
      result: sdk.sdkTagAssignment,
    });
    const bulk = await send<z.infer<typeof sdk.sdkTagOperation>>({
      fn: "tagsAndCommentsBulkCreateTagAssignments",
      method: "POST",
      template: "/v3/tags/{tag_id}/assignments/bulk-create",
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { max_assets: 0, query: "host.services.protocol=SSH" },
      status: 202,
      ctype: JSON_TYPE,
      result: sdk.sdkTagOperation,
    });
    expect(bulk.status).toBe("pending");
    now += 60_000;
    const operation = { tag_id: tag.id, operation_id: bulk.id };
    const finished = await send<z.infer<typeof sdk.sdkTagOperation>>({
      fn: "tagsAndCommentsGetTagOperation",
      method: "GET",
      template: "/v3/tags/{tag_id}/operations/{operation_id}",
      params: operation,
      query: orgQuery,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTagOperation,
    });
    expect(finished.status).toBe("succeeded");
    await send({
      fn: "tagsAndCommentsListTagAssignments",
      method: "GET",
      template: "/v3/tags/{tag_id}/assignments",
      params: one,
      query: [
        ["asset_id", undefined],
        ["asset_type", "host"],
        ["created_after", undefined],
        ["created_before", new Date(now)],
        ["created_by", undefined],
        ["order_by", "create_time_desc"],
        ...orgQuery,
        ["page_size", 100],
        ["page_token", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTagAssignmentsList,
    });
    const removal = await send<z.infer<typeof sdk.sdkTagOperation>>({
      fn: "tagsAndCommentsBulkDeleteTagAssignments",
      method: "POST",
      template: "/v3/tags/{tag_id}/assignments/bulk-delete",
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { created_after: new Date(now - 30_000).toISOString() },
      status: 202,
      ctype: JSON_TYPE,
      result: sdk.sdkTagOperation,
    });
    const cancelled = await send<z.infer<typeof sdk.sdkTagOperation>>({
      fn: "tagsAndCommentsCancelTagOperation",
      method: "POST",
      template: "/v3/tags/{tag_id}/operations/{operation_id}/cancel",
      params: { tag_id: tag.id, operation_id: removal.id },
      query: orgQuery,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTagOperation,
    });
    expect(cancelled.status).toBe("cancelled");
    await send({
      fn: "tagsAndCommentsListTagOperations",
      method: "GET",
      template: "/v3/tags/{tag_id}/operations",
      params: { tag_id: "-" },
      query: [
        ["order_by", "create_time_asc"],
        ...orgQuery,
        ["page_size", 10],
        ["page_token", undefined],
        ["status", undefined],
        ["type", "bulk_create"],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkTagOperationsList,
    });
    await send({
      fn: "tagsAndCommentsDeleteTagAssignment",
      method: "DELETE",
      template: "/v3/tags/{tag_id}/assignments/{assignment_id}",
      params: { tag_id: tag.id, assignment_id: assignment.id },
      query: orgQuery,
      accept: NIL_ACCEPT,
      status: 204,
      ctype: null,
      result: null,
    });
    await send({
      fn: "tagsAndCommentsDeleteTag",
      method: "DELETE",
      template: "/v3/tags/{tag_id}",
      params: one,
      query: orgQuery,
      accept: NIL_ACCEPT,
      status: 204,
      ctype: null,
      result: null,
    });
  });

  it("comments: create, list, update, delete", async () => {
    const host = (await hostFacts())[0]!;
    const comment = await send<z.infer<typeof sdk.sdkComment>>({
      fn: "tagsAndCommentsCreateComment",
      method: "POST",
      template: "/v3/comments",
      query: orgQuery,
      accept: JSON_TYPE,
      body: { asset_id: host.ip, body: "Seen in an incident." },
      status: 201,
      ctype: JSON_TYPE,
      result: sdk.sdkComment,
    });
    await send({
      fn: "tagsAndCommentsListComments",
      method: "GET",
      template: "/v3/comments",
      query: [
        ["asset_id", host.ip],
        ["created_after", undefined],
        ["created_before", undefined],
        ["created_by", account.user_id],
        ["order_by", "create_time_desc"],
        ...orgQuery,
        ["page_size", 20],
        ["page_token", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCommentsList,
    });
    const one = { comment_id: comment.id };
    await send({
      fn: "tagsAndCommentsUpdateComment",
      method: "PUT",
      template: "/v3/comments/{comment_id}",
      params: one,
      query: orgQuery,
      accept: JSON_TYPE,
      body: { body: "Seen in two incidents." },
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkComment,
    });
    await send({
      fn: "tagsAndCommentsDeleteComment",
      method: "DELETE",
      template: "/v3/comments/{comment_id}",
      params: one,
      query: orgQuery,
      accept: NIL_ACCEPT,
      status: 204,
      ctype: null,
      result: null,
    });
  });

  it("account management: organization, credits and usage, members, invitations, the user's own", async () => {
    const orgPath = "/v3/accounts/organizations/{organization_id}";
    const params = { organization_id: org };
    const today = new Date(now);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    await send({
      fn: "accountManagementGetOrganizationDetails",
      method: "GET",
      template: orgPath,
      params,
      query: [["include_member_counts", true]],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkOrganizationDetails,
    });
    await send({
      fn: "accountManagementGetOrganizationCredits",
      method: "GET",
      template: `${orgPath}/credits`,
      params,
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkOrganizationCredits,
    });
    await send({
      fn: "accountManagementGetOrganizationCreditUsage",
      method: "GET",
      template: `${orgPath}/credits/usage`,
      params,
      query: [
        ["date", undefined],
        ["end_date", day(today)],
        ["granularity", "daily"],
        ["include_consumer_breakdown", true],
        ["start_date", day(new Date(today.getTime() - 6 * 86_400_000))],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCreditUsageReport,
    });
    await send({
      fn: "accountManagementGetMemberCreditUsage",
      method: "GET",
      template: `${orgPath}/members/{user_id}/credits/usage`,
      params: { ...params, user_id: account.user_id },
      query: [
        ["date", undefined],
        ["end_date", undefined],
        ["granularity", "monthly"],
        ["start_date", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCreditUsageReport,
    });
    const members = await send<z.infer<typeof sdk.sdkOrganizationMembers>>({
      fn: "accountManagementListOrganizationMembers",
      method: "GET",
      template: `${orgPath}/members`,
      params,
      query: [
        ["page_size", 10],
        ["page_token", undefined],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkOrganizationMembers,
    });
    expect(members.members?.map((m) => m.uid)).toEqual([account.user_id, second.user_id]);
    await send({
      fn: "accountManagementInviteUserToOrganization",
      method: "POST",
      template: `${orgPath}/invitations`,
      params,
      accept: NIL_ACCEPT,
      body: { email: "new.analyst@scangate.test" },
      status: 201,
      ctype: null,
      result: null,
    });
    const member = { ...params, user_id: second.user_id };
    await send({
      fn: "accountManagementUpdateOrganizationMember",
      method: "PATCH",
      template: `${orgPath}/members/{user_id}`,
      params: member,
      accept: NIL_ACCEPT,
      body: { roles: ["api_access"] },
      status: 204,
      ctype: null,
      result: null,
    });
    await send({
      fn: "accountManagementRemoveOrganizationMember",
      method: "DELETE",
      template: `${orgPath}/members/{user_id}`,
      params: member,
      accept: NIL_ACCEPT,
      status: 204,
      ctype: null,
      result: null,
    });
    await send({
      fn: "accountManagementGetUserCredits",
      method: "GET",
      template: "/v3/accounts/users/credits",
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkUserCredits,
    });
    await send({
      fn: "accountManagementGetUserCreditsUsage",
      method: "GET",
      template: "/v3/accounts/users/credits/usage",
      query: [
        ["date", undefined],
        ["end_date", undefined],
        ["granularity", undefined],
        ["start_date", day(new Date(today.getTime() - 30 * 86_400_000))],
      ],
      accept: JSON_TYPE,
      status: 200,
      ctype: JSON_TYPE,
      result: sdk.sdkCreditUsageReport,
    });
  });

  it("drove every SDK function", () => {
    const missing = SDK_FUNCTIONS.filter((fn) => !exercised.has(fn));
    expect(missing).toEqual([]);
    expect(SDK_FUNCTIONS).toHaveLength(65);
  });

  it("answers the SDK's error matchers: a 404 problem it reads as ErrorModel, a 401 as AuthenticationError", async () => {
    const notFound = await v3Call("GET", `/v3/global/asset/host/192.0.2.1?organization_id=${org}`, {
      headers: { Accept: HOST },
      fetcher,
    });
    expect(notFound.status).toBe(404);
    expect(sdkMatchesContentType(notFound, "application/problem+json")).toBe(true);
    expect(sdk.sdkErrorModel.parse(await notFound.json())).toMatchObject({ status: 404, title: "Not Found" });
    // `M.jsonErr(401, errors.AuthenticationError$inboundSchema)`: no ctype, so the matcher's JSON default.
    const unauthorized = await v3Call("GET", "/v3/tags", { token: "not-a-token-of-anyone", fetcher });
    expect(unauthorized.status).toBe(401);
    expect(sdkMatchesContentType(unauthorized, "application/json")).toBe(true);
    const body = sdk.sdkAuthenticationError.parse(await unauthorized.json());
    expect(body.error).toMatchObject({ code: 401, status: "Unauthorized" });
    expect(body.error?.message).toBeTruthy();
  });
});
