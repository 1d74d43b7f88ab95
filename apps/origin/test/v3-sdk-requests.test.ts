/**
 * Requests built exactly as the official TypeScript SDK (censys/censys-sdk-typescript 0.12.5,
 * `src/funcs/globalData*.ts` and `src/funcs/accountManagement*.ts`) builds them: the same
 * method, path (parameters percent-encoded), query (form-encoded in the SDK's key order, dates
 * as `toISOString()`, `organization_id` from the client's option), headers (`Accept` of the
 * operation, `Content-Type` for a body, the SDK's `user-agent`, its empty `cookie`, the bearer
 * token) and JSON body (snake_case). Each answer must match the SDK's own content-type check and
 * parse with schemas equivalent to the SDK's models (`src/models/components`: required fields,
 * integers, RFC 3339 date-times with an offset where the SDK turns them into Dates).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts, websiteDocs } from "./support/dataset-facts";
import { platformAccount, v3Call } from "./v3-requests";

beforeAll(() => seedTestDataset());

/** `SDK_METADATA.userAgent` of the SDK (src/lib/config.ts). */
const SDK_USER_AGENT = "speakeasy-sdk/typescript 0.12.5 2.931.0 1.0.125 @censys/platform-sdk";

interface SdkOperation {
  /** The SDK's `operationID`. */
  id: string;
  method: "GET" | "POST";
  path: string;
  /** The query the func encodes, in its order (undefined values are left out, as it does). */
  query: [string, unknown][];
  accept: string;
  body?: unknown;
  /** The `ctype` its success matcher wants (`M.json`/`M.stream`). */
  ctype: string;
  /** The SDK-equivalent schema of the envelope's `result` (null: a PEM stream). */
  result: z.ZodType | null;
}

/** `serializeValue` + `encodeURIComponent` of src/lib/encodings.ts. */
function encodeQuery(query: [string, unknown][]): string {
  return query
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => {
      const text = value instanceof Date ? value.toISOString() : String(value);
      return `${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
    })
    .join("&");
}

/** `_createRequest` of src/lib/sdks.ts with the bearer security of src/lib/security.ts. */
function sdkRequest(
  operation: SdkOperation,
  token: string,
): { path: string; headers: Record<string, string>; body?: string } {
  const query = encodeQuery(operation.query);
  const headers: Record<string, string> = { Accept: operation.accept };
  if (operation.body !== undefined) headers["Content-Type"] = "application/json";
  headers.Authorization = `Bearer ${token}`;
  headers.cookie = "";
  headers["user-agent"] = SDK_USER_AGENT;
  return {
    path: `${operation.path}${query ? `?${query}` : ""}`,
    headers,
    body: operation.body === undefined ? undefined : JSON.stringify(operation.body),
  };
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

// ---- schemas equivalent to the SDK's inbound models (non-strict objects, as zod v3's default) ----

const int = z.number().int();
const dateTime = z.iso.datetime({ offset: true });
const sdkKeyUsage = z.object({ value: int.optional(), digital_signature: z.boolean().optional() });
const sdkCertificate = z.object({
  fingerprint_sha256: z.string().optional(),
  names: z.array(z.string()).nullable().optional(),
  parsed: z
    .object({
      version: int.optional(),
      serial_number: z.string().optional(),
      validity_period: z
        .object({ length_seconds: int.optional(), not_before: z.string().optional() })
        .optional(),
      issuer: z.object({ common_name: z.array(z.string()).nullable().optional() }).optional(),
      extensions: z
        .object({
          key_usage: sdkKeyUsage.optional(),
          basic_constraints: z
            .object({ is_ca: z.boolean().optional(), max_path_len: int.optional() })
            .optional(),
          certificate_policies: z
            .array(z.object({ id: z.string().optional(), cps: z.array(z.string()).nullable().optional() }))
            .nullable()
            .optional(),
          signed_certificate_timestamps: z
            .array(
              z.object({
                version: int.optional(),
                log_id: z.string().optional(),
                timestamp: z.string().optional(),
                signature: z.object({ signature: z.string().optional() }).optional(),
              }),
            )
            .nullable()
            .optional(),
          subject_alt_name: z.object({ dns_names: z.array(z.string()).nullable().optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
  validation: z
    .record(
      z.string(),
      z.object({ is_valid: z.boolean().optional(), parents: z.array(z.string()).nullable().optional() }),
    )
    .optional(),
  zlint: z.object({ version: int.optional(), errors_present: z.boolean().optional() }).optional(),
});
const sdkHttp = z.object({
  status_code: int.optional(),
  body_size: int.optional(),
  headers: z.record(z.string(), z.object({ headers: z.array(z.string()).nullable().optional() })).optional(),
  html_tags: z.array(z.string()).nullable().optional(),
});
const sdkEndpoint = z.object({ port: int.optional(), path: z.string().optional(), http: sdkHttp.optional() });
const sdkAttribute = z.object({
  cpe: z.string().optional(),
  source: z.string().optional(),
  type: z.array(z.string()).nullable().optional(),
});
const sdkService = z.object({
  port: int.optional(),
  protocol: z.string().optional(),
  transport_protocol: z.string().optional(),
  scan_time: z.string().optional(),
  software: z.array(sdkAttribute).nullable().optional(),
  endpoints: z.array(sdkEndpoint).nullable().optional(),
  cert: sdkCertificate.optional(),
  tls: z
    .object({
      version_selected: z.string().optional(),
      presented_chain: z
        .array(z.object({ fingerprint_sha256: z.string().optional() }))
        .nullable()
        .optional(),
    })
    .optional(),
  // Protocol blocks the SDK types (telnet options are maps there, RDP's protocol an object).
  telnet: z
    .object({
      do: z.record(z.string(), z.string().nullable()).optional(),
      will: z.record(z.string(), z.string().nullable()).optional(),
    })
    .optional(),
  rdp: z.object({ selected_security_protocol: z.object({}).optional() }).optional(),
  ssh: z
    .object({
      endpoint_id: z.object({ raw: z.string().optional() }).optional(),
      hassh_fingerprint: z.string().optional(),
    })
    .optional(),
  mysql: z
    .object({
      protocol_version: int.optional(),
      capability_flags: z.record(z.string(), z.boolean()).optional(),
    })
    .optional(),
  redis: z.object({ auth_response: z.string().optional() }).optional(),
  postgres: z
    .object({
      protocol_error: z.record(z.string(), z.string()).optional(),
      supported_versions: z.string().optional(),
    })
    .optional(),
});
const sdkHost = z.object({
  ip: z.string().optional(),
  service_count: int.optional(),
  autonomous_system: z.object({ asn: int.optional(), bgp_prefix: z.string().optional() }).optional(),
  location: z
    .object({
      coordinates: z.object({ latitude: z.number().optional(), longitude: z.number().optional() }).optional(),
    })
    .optional(),
  services: z.array(sdkService).nullable().optional(),
});
const asset = <T extends z.ZodType>(resource: T) =>
  z.object({ resource, extensions: z.record(z.string(), z.unknown()) });
const sdkWebproperty = z.object({
  hostname: z.string().optional(),
  port: int.optional(),
  endpoints: z.array(sdkEndpoint).nullable().optional(),
  cert: sdkCertificate.optional(),
  software: z.array(sdkAttribute).nullable().optional(),
});
const sdkTimeline = z.object({
  events: z
    .array(
      asset(
        z.object({
          event_time: z.string().optional(),
          service_scanned: z
            .object({
              scan: sdkService.extend({ is_success: z.boolean().optional() }).optional(),
              diff: z
                .record(z.string(), z.object({ old: z.string().optional(), new: z.string().optional() }))
                .optional(),
            })
            .optional(),
          route_updated: z.object({ route: z.object({ asn: int.optional() }).optional() }).optional(),
          location_updated: z
            .object({ location: z.object({ country: z.string().optional() }).optional() })
            .optional(),
        }),
      ),
    )
    .nullable(),
  scanned_to: dateTime,
});
const sdkOrganizationDetails = z.object({
  uid: z.string(),
  name: z.string(),
  created_at: dateTime.optional(),
  member_counts: z
    .object({ total: int, by_role: z.object({ admin: int.optional(), api_access: int.optional() }) })
    .optional(),
  preferences: z
    .object({
      ai_opt_in: z.boolean().optional(),
      ai_training: z.boolean().optional(),
      mfa_required: z.boolean().optional(),
    })
    .optional(),
});
const sdkOrganizationCredits = z.object({
  uid: z.string(),
  balance: int,
  credit_expirations: z
    .array(
      z.object({
        balance: int,
        initial_balance: int,
        created_at: dateTime.optional(),
        expires_at: dateTime.optional(),
      }),
    )
    .nullable(),
  auto_replenish_config: z.object({
    enabled: z.boolean(),
    amount: int.optional(),
    threshold: int.optional(),
  }),
});
const sdkCreditUsageReport = z.object({
  start_time: dateTime,
  end_time: dateTime,
  granularity: z.string().default("daily"),
  periods: z
    .array(
      z.object({
        credits_added: int,
        credits_consumed: int,
        credits_expired: int,
        start_date: dateTime,
        end_date: dateTime,
        transaction_count: int,
      }),
    )
    .nullable(),
  total_added: int,
  total_consumed: int,
  total_expired: int,
  transaction_count: int,
  credits_consumed_by_source: z.object({
    api: int,
    ui: int,
    auto_replenishment: int.optional(),
    other: int.optional(),
  }),
  credits_consumed_by_consumer: z.record(z.string(), int).optional(),
});
/** `components.SearchQueryResponse` with `SearchQueryHit`s (`HostAssetWithMatchedServices`, ...). */
const sdkSearchQueryResponse = z.object({
  hits: z.array(
    z.object({
      host_v1: asset(sdkHost)
        .extend({
          matched_services: z
            .array(
              z.object({
                port: int.optional(),
                protocol: z.string().optional(),
                transport_protocol: z.string().optional(),
              }),
            )
            .optional(),
        })
        .optional(),
      certificate_v1: asset(sdkCertificate).optional(),
      webproperty_v1: asset(sdkWebproperty).optional(),
    }),
  ),
  next_page_token: z.string(),
  previous_page_token: z.string(),
  query_duration_millis: int,
  total_hits: z.number(),
});
/** `components.SearchAggregateResponse`. */
const sdkSearchAggregateResponse = z.object({
  buckets: z.array(z.object({ key: z.string(), count: int })),
  total_count: int,
  other_count: int,
  is_more_than_total_hits: z.boolean(),
  query_duration_millis: int,
});
/** `components.SearchConvertQueryResponse`, a list of them. */
const sdkSearchConvertResponse = z.array(
  z.object({
    original_query: z.string(),
    converted_query: z.string().optional(),
    targets: z.array(z.string()),
    errors: z.array(z.object({ message: z.string() })),
    comments: z.array(z.string()).optional(),
    alternative_queries: z.array(z.object({ query: z.string(), targets: z.array(z.string()) })).optional(),
  }),
);
/** `errors.ErrorModel`. */
const sdkErrorModel = z.object({
  detail: z.string().optional(),
  errors: z
    .array(
      z.object({
        location: z.string().optional(),
        message: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .nullable()
    .optional(),
  instance: z.string().optional(),
  status: int.optional(),
  title: z.string().optional(),
  type: z.string().default("about:blank"),
});

const HOST = "application/vnd.censys.api.v3.host.v1+json";
const TIMELINE = "application/vnd.censys.api.v3.host_timeline_event.v1+json";
const CERT = "application/vnd.censys.api.v3.certificate.v1+json";
const WEB = "application/vnd.censys.api.v3.webproperty.v1+json";
const PEM = "application/x-pem-file";
const JSON_TYPE = "application/json";

async function operations(): Promise<SdkOperation[]> {
  const account = platformAccount();
  const org = account.organization_id;
  const hosts = await hostFacts();
  const telnetHost = hosts.find((h) => h.doc.services.some((s) => s.service_name === "TELNET")) ?? hosts[0]!;
  const rdpHost = hosts.find((h) => h.doc.services.some((s) => s.service_name === "RDP")) ?? hosts[1]!;
  const certs = await certificateDocs();
  const withScts =
    certs.find((c) => JSON.stringify(c.doc.parsed).includes("signed_certificate_timestamps")) ?? certs[0]!;
  const site = ((await websiteDocs()) as { domain: string; doc: { ports: number[] } }[]).find((s) =>
    s.doc.ports.includes(443),
  )!;
  const { results } = await env.DB.prepare("select min(valid_from) as first from host_history where ip = ?")
    .bind(telnetHost.ip)
    .all<{ first: number }>();
  const atTime = new Date(results[0]!.first + 60_000);
  const today = new Date();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const hostPath = (ip: string) => `/v3/global/asset/host/${encodeURIComponent(ip)}`;
  return [
    {
      id: "v3-globaldata-asset-host",
      method: "GET",
      path: hostPath(telnetHost.ip),
      query: [
        ["at_time", undefined],
        ["organization_id", org],
      ],
      accept: HOST,
      ctype: HOST,
      result: asset(sdkHost),
    },
    {
      id: "v3-globaldata-asset-host (at_time)",
      method: "GET",
      path: hostPath(rdpHost.ip),
      query: [
        ["at_time", new Date()],
        ["organization_id", org],
      ],
      accept: HOST,
      ctype: HOST,
      result: asset(sdkHost),
    },
    {
      id: "v3-globaldata-asset-host-list-post",
      method: "POST",
      path: "/v3/global/asset/host",
      query: [["organization_id", org]],
      accept: HOST,
      body: { at_time: atTime.toISOString(), host_ids: [telnetHost.ip, rdpHost.ip, "192.0.2.1"] },
      ctype: HOST,
      result: z.array(asset(sdkHost)),
    },
    {
      id: "v3-globaldata-asset-host-timeline",
      method: "GET",
      path: `${hostPath(telnetHost.ip)}/timeline`,
      query: [
        ["end_time", new Date("2025-01-01T00:00:00Z")],
        ["organization_id", org],
        ["start_time", today],
      ],
      accept: TIMELINE,
      ctype: TIMELINE,
      result: sdkTimeline,
    },
    {
      id: "v3-globaldata-asset-certificate",
      method: "GET",
      path: `/v3/global/asset/certificate/${withScts.sha256}`,
      query: [["organization_id", org]],
      accept: CERT,
      ctype: CERT,
      result: asset(sdkCertificate),
    },
    {
      id: "v3-globaldata-asset-certificate-raw",
      method: "GET",
      path: `/v3/global/asset/certificate/${withScts.sha256}/raw`,
      query: [["organization_id", org]],
      accept: PEM,
      ctype: PEM,
      result: null,
    },
    {
      id: "v3-globaldata-asset-certificate-list-post",
      method: "POST",
      path: "/v3/global/asset/certificate",
      query: [["organization_id", org]],
      accept: CERT,
      body: { certificate_ids: certs.slice(0, 20).map((c) => c.sha256) },
      ctype: CERT,
      result: z.array(asset(sdkCertificate)),
    },
    {
      id: "v3-globaldata-asset-certificate-list-raw-post",
      method: "POST",
      path: "/v3/global/asset/certificate/raw",
      query: [["organization_id", org]],
      accept: JSON_TYPE,
      body: { certificate_ids: [certs[0]!.sha256, certs[1]!.sha256] },
      ctype: JSON_TYPE,
      result: z.array(z.object({ certificate_id: z.string(), pem: z.string() })),
    },
    {
      id: "v3-globaldata-asset-webproperty",
      method: "GET",
      path: `/v3/global/asset/webproperty/${encodeURIComponent(`${site.domain}:443`)}`,
      query: [
        ["at_time", undefined],
        ["organization_id", org],
      ],
      accept: WEB,
      ctype: WEB,
      result: asset(sdkWebproperty),
    },
    {
      id: "v3-globaldata-asset-webproperty-list-post",
      method: "POST",
      path: "/v3/global/asset/webproperty",
      query: [["organization_id", org]],
      accept: WEB,
      body: { webproperty_ids: [`${site.domain}:443`, `${telnetHost.ip}:80`] },
      ctype: WEB,
      result: z.array(asset(sdkWebproperty)),
    },
    {
      id: "v3-globaldata-search-query",
      method: "POST",
      path: "/v3/global/search/query",
      query: [["organization_id", org]],
      accept: JSON_TYPE,
      body: { query: "host.services: (protocol=SSH and not port: 22)", fields: ["host.ip"], page_size: 1 },
      ctype: JSON_TYPE,
      result: sdkSearchQueryResponse,
    },
    {
      id: "v3-globaldata-search-query (web)",
      method: "POST",
      path: "/v3/global/search/query",
      query: [["organization_id", org]],
      accept: JSON_TYPE,
      body: { query: "web.hostname: *", page_size: 5 },
      ctype: JSON_TYPE,
      result: sdkSearchQueryResponse,
    },
    {
      id: "v3-globaldata-search-aggregate",
      method: "POST",
      path: "/v3/global/search/aggregate",
      query: [["organization_id", org]],
      accept: JSON_TYPE,
      body: { query: "host.services.protocol=SSH", field: "host.services.port", number_of_buckets: 100 },
      ctype: JSON_TYPE,
      result: sdkSearchAggregateResponse,
    },
    {
      id: "v3-globaldata-search-convert-legacy-search-queries",
      method: "POST",
      path: "/v3/global/search/convert",
      query: [["organization_id", org]],
      accept: JSON_TYPE,
      body: { queries: ["services.service_name: SSH", "services.port: ("] },
      ctype: JSON_TYPE,
      result: sdkSearchConvertResponse,
    },
    {
      id: "v3-accountmanagement-org-details",
      method: "GET",
      path: `/v3/accounts/organizations/${org}`,
      query: [["include_member_counts", true]],
      accept: JSON_TYPE,
      ctype: JSON_TYPE,
      result: sdkOrganizationDetails,
    },
    {
      id: "v3-accountmanagement-org-credits",
      method: "GET",
      path: `/v3/accounts/organizations/${org}/credits`,
      query: [],
      accept: JSON_TYPE,
      ctype: JSON_TYPE,
      result: sdkOrganizationCredits,
    },
    {
      id: "v3-accountmanagement-org-credits-usage",
      method: "GET",
      path: `/v3/accounts/organizations/${org}/credits/usage`,
      query: [
        ["date", undefined],
        ["end_date", day(today)],
        ["granularity", "daily"],
        ["include_consumer_breakdown", true],
        ["start_date", day(new Date(today.getTime() - 6 * 86_400_000))],
      ],
      accept: JSON_TYPE,
      ctype: JSON_TYPE,
      result: sdkCreditUsageReport,
    },
    {
      id: "v3-accountmanagement-member-credits-usage",
      method: "GET",
      path: `/v3/accounts/organizations/${org}/members/${account.user_id}/credits/usage`,
      query: [
        ["date", undefined],
        ["end_date", undefined],
        ["granularity", "monthly"],
        ["start_date", undefined],
      ],
      accept: JSON_TYPE,
      ctype: JSON_TYPE,
      result: sdkCreditUsageReport,
    },
  ];
}

describe("requests built as the official TypeScript SDK builds them", () => {
  it("covers every v3 operation the origin serves", async () => {
    const ids = new Set((await operations()).map((op) => op.id.replace(/ \(.*\)$/, "")));
    expect(ids.size).toBe(16);
  });

  it("each succeeds, answers the content type the SDK matches, and parses as the SDK's model", async () => {
    const account = platformAccount();
    for (const operation of await operations()) {
      const { path, headers, body } = sdkRequest(operation, account.personal_access_token);
      const res = await v3Call(operation.method, path, { token: null, headers, body });
      expect(res.status, operation.id).toBe(200);
      expect(
        sdkMatchesContentType(res, operation.ctype),
        `${operation.id}: ${res.headers.get("content-type")}`,
      ).toBe(true);
      if (operation.result === null) {
        expect(await res.text()).toMatch(
          /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/,
        );
        continue;
      }
      const parsed = z.object({ result: operation.result.optional() }).safeParse(await res.json());
      expect(parsed.success ? "ok" : z.prettifyError(parsed.error), operation.id).toBe("ok");
    }
  });

  it("answers the SDK's error matchers: a 404 problem the SDK reads as ErrorModel", async () => {
    const account = platformAccount();
    const operation: SdkOperation = {
      id: "v3-globaldata-asset-host",
      method: "GET",
      path: "/v3/global/asset/host/192.0.2.1",
      query: [["organization_id", account.organization_id]],
      accept: HOST,
      ctype: "application/problem+json",
      result: null,
    };
    const { path, headers } = sdkRequest(operation, account.personal_access_token);
    const res = await v3Call("GET", path, { token: null, headers });
    expect(res.status).toBe(404);
    expect(sdkMatchesContentType(res, operation.ctype)).toBe(true);
    expect(sdkErrorModel.parse(await res.json())).toMatchObject({ status: 404, title: "Not Found" });
  });
});
