import { env } from "cloudflare:workers";
import { V3_BULK_IDS_MAX, V3_MEDIA_TYPES } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts, websiteDocs } from "./support/dataset-facts";
import { balanceOf, expectProblem, v3Call, type V3CallOptions } from "./v3-requests";

/**
 * The bulk lookups' GET form (ids in the query, comma-separated, as the SDKs before 0.6 send
 * them: censys-platform 0.5.1 `get_hosts` and its kin) answers as the POST form does for the same
 * ids: the same body, the same problems and the same credits.
 */

beforeAll(() => seedTestDataset());

const HOST = "/v3/global/asset/host";
const CERTIFICATE = "/v3/global/asset/certificate";
const WEBPROPERTY = "/v3/global/asset/webproperty";

const query = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  return `?${search.toString()}`;
};

/** The GET and the POST of the same ids: both answers, status, media type and body text. */
async function bothForms(path: string, field: string, ids: string[], extra: Record<string, string> = {}) {
  const get = await v3Call("GET", path + query({ [field]: ids.join(","), ...extra }));
  const post = await v3Call("POST", path, { body: { [field]: ids, ...extra } });
  return { get, post, getText: await get.text(), postText: await post.text() };
}

/** A past instant inside some host's history (so `at_time` answers differ from now). */
async function pastInstant(): Promise<string> {
  const row = await env.DB.prepare(
    "select valid_from + (valid_to - valid_from) / 2 as t from host_history where valid_to is not null order by valid_from limit 1 offset 10",
  ).first<{ t: number }>();
  return new Date(row!.t).toISOString();
}

describe("GET /v3/global/asset/host?host_ids=a,b", () => {
  it("answers what the POST answers for the same ids, in the host media type", async () => {
    const hosts = await hostFacts();
    const ids = [hosts[2]!.ip, "192.0.2.55", hosts[0]!.ip, hosts[2]!.ip];
    const { get, post, getText, postText } = await bothForms(HOST, "host_ids", ids);
    expect(get.status).toBe(200);
    expect(get.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.host);
    expect(post.status).toBe(200);
    expect(getText).toBe(postText);
    const result = (JSON.parse(getText) as { result: { resource: { ip: string } }[] }).result;
    expect(result.map((asset) => asset.resource.ip)).toEqual([hosts[2]!.ip, hosts[0]!.ip]);
  });

  it("answers what the POST answers at at_time", async () => {
    const hosts = await hostFacts();
    const ids = hosts.slice(0, 20).map((host) => host.ip);
    const { get, getText, postText } = await bothForms(HOST, "host_ids", ids, {
      at_time: await pastInstant(),
    });
    expect(get.status).toBe(200);
    expect(getText).toBe(postText);
  });

  it("reads repeated host_ids keys as one list", async () => {
    const hosts = await hostFacts();
    const ids = [hosts[0]!.ip, hosts[1]!.ip, hosts[2]!.ip];
    const repeated = await v3Call("GET", HOST + query({ host_ids: [ids[0]!, `${ids[1]},${ids[2]}`] }));
    const { getText } = await bothForms(HOST, "host_ids", ids);
    expect(repeated.status).toBe(200);
    expect(await repeated.text()).toBe(getText);
  });

  it("refuses ids that are not addresses, naming each in the query", async () => {
    const [host] = await hostFacts();
    const res = await v3Call("GET", HOST + query({ host_ids: `${host!.ip},nope,1.2.3` }));
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      { location: "query.host_ids[1]", message: "not an IP address", value: "nope" },
      { location: "query.host_ids[2]", message: "not an IP address", value: "1.2.3" },
    ]);
  });

  it("refuses a missing, empty or oversized host_ids as the POST refuses them", async () => {
    const tooMany = Array.from({ length: V3_BULK_IDS_MAX + 1 }, () => "192.0.2.1");
    const cases: [string, unknown][] = [
      ["", {}],
      [query({ host_ids: "" }), { host_ids: [] }],
      [query({ host_ids: tooMany.join(",") }), { host_ids: tooMany }],
    ];
    for (const [search, body] of cases) {
      const get = await expectProblem(await v3Call("GET", HOST + search), 400);
      const post = await expectProblem(await v3Call("POST", HOST, { body }), 400);
      expect(get.errors?.[0]?.location, search).toBe("query.host_ids");
      expect(get.errors?.[0]?.message).toBe(post.errors?.[0]?.message);
    }
  });

  it("refuses an at_time that is not RFC 3339", async () => {
    const [host] = await hostFacts();
    const res = await v3Call("GET", HOST + query({ host_ids: host!.ip, at_time: "yesterday" }));
    const problem = await expectProblem(res, 400);
    expect(problem.errors?.[0]?.location).toBe("query.at_time");
  });
});

describe("GET /v3/global/asset/certificate?certificate_ids=a,b", () => {
  it("answers what the POST answers for the same fingerprints", async () => {
    const certs = await certificateDocs();
    const ids = [certs[1]!.sha256.toUpperCase(), "0".repeat(64), certs[0]!.sha256];
    const { get, getText, postText } = await bothForms(CERTIFICATE, "certificate_ids", ids);
    expect(get.status).toBe(200);
    expect(get.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.certificate);
    expect(getText).toBe(postText);
    expect((JSON.parse(getText) as { result: unknown[] }).result).toHaveLength(2);
  });

  it("refuses text that is no fingerprint, naming it in the query", async () => {
    const res = await v3Call("GET", CERTIFICATE + query({ certificate_ids: `abc,${"0".repeat(64)}` }));
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      {
        location: "query.certificate_ids[0]",
        message: "not a SHA-256 fingerprint (64 hex digits)",
        value: "abc",
      },
    ]);
  });
});

describe("GET /v3/global/asset/webproperty?webproperty_ids=a,b", () => {
  it("answers what the POST answers for the same ids, now and at at_time", async () => {
    const sites = (await websiteDocs()).slice(0, 10);
    const ids = [...sites.map((site) => `${site.domain}:443`), "nowhere.example:443"];
    const atTimes: Record<string, string>[] = [{}, { at_time: await pastInstant() }];
    for (const extra of atTimes) {
      const { get, getText, postText } = await bothForms(WEBPROPERTY, "webproperty_ids", ids, extra);
      expect(get.status).toBe(200);
      expect(get.headers.get("Content-Type")).toBe(V3_MEDIA_TYPES.webproperty);
      expect(getText).toBe(postText);
    }
  });

  it("refuses an id that is not hostname:port, naming it in the query", async () => {
    const res = await v3Call("GET", WEBPROPERTY + query({ webproperty_ids: "a.example:443,bad" }));
    const problem = await expectProblem(res, 400);
    expect(problem.errors).toEqual([
      { location: "query.webproperty_ids[1]", message: "not a web property id hostname:port", value: "bad" },
    ]);
  });
});

describe("the GET form's credits", () => {
  /** A worker with one organization of its own holding `credits`. */
  function organization(organizationId: string, credits: number) {
    const account = {
      api_id: `${organizationId}-api`,
      api_secret: "secret",
      login: "member",
      email: "member@example.test",
      allowance: 100,
      personal_access_token: `${organizationId}-token-xxxxxxxx`,
      organization_id: organizationId,
      user_id: `${organizationId}-user`,
      organization_name: "Test Org",
      credits,
    };
    const app = createApp();
    const harness = { ...env, ORIGIN_ACCOUNTS: JSON.stringify([account]) };
    const options = (extra: V3CallOptions = {}): V3CallOptions => ({
      token: account.personal_access_token,
      fetcher: async (request) => app.fetch(request, harness),
      ...extra,
    });
    return {
      call: (method: string, path: string, extra?: V3CallOptions) => v3Call(method, path, options(extra)),
    };
  }

  it("charges one credit per asset found, as the POST does; unknown ids and refusals are free", async () => {
    const org = organization("org-bulk-get", 100);
    const certs = await certificateDocs();
    const ids = [certs[0]!.sha256, "0".repeat(64), certs[1]!.sha256];
    expect((await org.call("GET", CERTIFICATE + query({ certificate_ids: ids.join(",") }))).status).toBe(200);
    expect(await balanceOf("org-bulk-get")).toBe(98);
    expect((await org.call("POST", CERTIFICATE, { body: { certificate_ids: ids } })).status).toBe(200);
    expect(await balanceOf("org-bulk-get")).toBe(96);
    expect((await org.call("GET", HOST + query({ host_ids: "192.0.2.1" }))).status).toBe(200);
    expect((await org.call("GET", HOST + query({ host_ids: "nope" }))).status).toBe(400);
    expect(await balanceOf("org-bulk-get")).toBe(96);
  });

  it("refuses a GET the balance cannot pay with the POST's 422, withholding the answer", async () => {
    const org = organization("org-bulk-get-poor", 1);
    const certs = await certificateDocs();
    const ids = [certs[0]!.sha256, certs[1]!.sha256].join(",");
    const res = await org.call("GET", CERTIFICATE + query({ certificate_ids: ids }));
    const problem = await expectProblem(res, 422);
    expect(problem.errors).toEqual([expect.objectContaining({ message: "insufficient balance" })]);
    expect(await balanceOf("org-bulk-get-poor")).toBe(1);
  });
});
