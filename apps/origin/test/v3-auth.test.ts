import { env } from "cloudflare:workers";
import { v3AuthenticationErrorSchema, V3_BULK_QUERY_FORMS, V3_OPERATIONS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { ORIGIN_ROUTES } from "../src/routes";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts } from "./support/dataset-facts";
import { balanceOf, expectProblem, platformAccount, v3Call, v3Get } from "./v3-requests";

beforeAll(() => seedTestDataset());

/** Sample values of the v3 path parameters (auth comes first, so they need not exist). */
const PARAMS: Record<string, string> = {
  host_id: "1.1.1.1",
  host_ip: "1.1.1.1",
  ip: "1.1.1.1",
  certificate_id: "a".repeat(64),
  webproperty_id: "example.com:443",
  user_id: "someone",
  collection_uid: "col_0",
  tag_id: "tag_0",
  assignment_id: "tas_0",
  operation_id: "top_0",
  comment_id: "cmt_0",
  scan_id: "scn_0",
  job_id: "cej_0",
  name: "example.com",
};

/** A concrete request for every v3 route (ids that exist or not: auth comes first). */
function v3Requests(organizationId: string): { method: string; path: string; body?: unknown }[] {
  return ORIGIN_ROUTES.filter((route) => route.definition.path.startsWith("/v3/")).map((route) => {
    const path = route.definition.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === "organization_id" ? organizationId : (PARAMS[name] ?? "x"),
    );
    const method = route.definition.method.toUpperCase();
    return { method, path, body: ["POST", "PUT", "PATCH"].includes(method) ? {} : undefined };
  });
}

/** Asserts the SDK's typed AuthenticationError: a 401 in application/json with `error`. */
async function expectAuthenticationError(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get("Content-Type")).toBe("application/json");
  expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="scangate"');
  const body = v3AuthenticationErrorSchema.parse(await res.json());
  expect(body.error).toMatchObject({ code: 401, status: "Unauthorized" });
  return body;
}

describe("Platform API authentication", () => {
  const account = platformAccount();
  const requests = v3Requests(account.organization_id);

  it("covers every v3 route", () => {
    expect(requests.length).toBe(V3_OPERATIONS.length + V3_BULK_QUERY_FORMS.length);
  });

  for (const request of requests) {
    describe(`${request.method} ${request.path}`, () => {
      it("answers the SDK's AuthenticationError without a token, charging nothing", async () => {
        const before = await balanceOf(account.organization_id);
        const res = await v3Call(request.method, request.path, { token: null, body: request.body });
        const body = await expectAuthenticationError(res);
        // The problem members are there too.
        expect(body).toMatchObject({ status: 401, title: "Unauthorized" });
        expect(body.detail).toMatch(/Bearer/);
        expect(await balanceOf(account.organization_id)).toBe(before);
      });

      it("answers 401 for a token that is not an account's", async () => {
        const res = await v3Call(request.method, request.path, {
          token: "not-a-real-token-0000",
          body: request.body,
        });
        const body = await expectAuthenticationError(res);
        expect(body.detail).toMatch(/not valid/);
      });

      it("answers 401 for the account's Basic credentials (the Platform takes bearer tokens only)", async () => {
        const res = await v3Call(request.method, request.path, {
          token: null,
          headers: { Authorization: `Basic ${btoa("origin-local:origin-local-secret")}` },
          body: request.body,
        });
        await expectAuthenticationError(res);
      });
    });
  }
});

describe("Platform API organization", () => {
  const account = platformAccount();

  it("acts for the member's own organization when none is named", async () => {
    const [host] = await hostFacts();
    const { res } = await v3Get(`/v3/global/asset/host/${host!.ip}`);
    expect(res.status).toBe(200);
  });

  it("takes the organization as organization_id or X-Organization-ID", async () => {
    const [host] = await hostFacts();
    const byQuery = await v3Call(
      "GET",
      `/v3/global/asset/host/${host!.ip}?organization_id=${account.organization_id}`,
    );
    expect(byQuery.status).toBe(200);
    const byHeader = await v3Call("GET", `/v3/global/asset/host/${host!.ip}`, {
      headers: { "X-Organization-ID": account.organization_id },
    });
    expect(byHeader.status).toBe(200);
  });

  it("refuses another organization with 403, by query or by header, charging nothing", async () => {
    const [host] = await hostFacts();
    await v3Get(`/v3/global/asset/host/${host!.ip}`);
    const before = await balanceOf(account.organization_id);
    const other = "00000000-0000-4000-8000-000000000000";
    const byQuery = await v3Call("GET", `/v3/global/asset/host/${host!.ip}?organization_id=${other}`);
    const problem = await expectProblem(byQuery, 403);
    expect(problem.detail).toContain(other);
    expect(problem.errors).toEqual([
      { location: "organization_id", message: "not a member of this organization", value: other },
    ]);
    const byHeader = await v3Call("GET", `/v3/global/asset/host/${host!.ip}`, {
      headers: { "X-Organization-ID": other },
    });
    await expectProblem(byHeader, 403);
    expect(await balanceOf(account.organization_id)).toBe(before);
  });

  it("refuses another organization in an account path with 403", async () => {
    const res = await v3Call("GET", "/v3/accounts/organizations/someone-else/credits");
    await expectProblem(res, 403);
  });

  it("refuses a member of another organization on this one's account paths", async () => {
    const other = {
      api_id: "other",
      api_secret: "other-secret",
      login: "other",
      email: "other@example.test",
      allowance: 10,
      personal_access_token: "other-organization-token",
      organization_id: "org-other",
      user_id: "user-other",
    };
    const app = createApp();
    const harness = {
      ...env,
      ORIGIN_ACCOUNTS: JSON.stringify([...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), other]),
    };
    const fetcher = async (request: Request) => app.fetch(request, harness);
    const own = await v3Call("GET", "/v3/accounts/organizations/org-other/credits", {
      token: other.personal_access_token,
      fetcher,
    });
    expect(own.status).toBe(200);
    const foreign = await v3Call("GET", `/v3/accounts/organizations/${account.organization_id}/credits`, {
      token: other.personal_access_token,
      fetcher,
    });
    await expectProblem(foreign, 403);
  });
});
