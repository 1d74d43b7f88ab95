import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import {
  HOSTS_PER_PAGE_MAX,
  hostsSearchResultSchema,
  v2Envelope,
  v2ErrorSchema,
  v2InvalidQueryErrorSchema,
} from "@scangate/core";
import { fromBase64Url, toBase64Url } from "@scangate/core/http";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { hostFacts, type HostFacts } from "./support/dataset-facts";
import { defaultAuth, getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

const envelope = v2Envelope(hostsSearchResultSchema);

async function searchPage(query: string) {
  const { res, body } = await getJson(`/api/v2/hosts/search?${query}`);
  expect(res.status).toBe(200);
  return envelope.parse(body).result;
}

function params(values: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString();
}

const hasService = (host: HostFacts, name: string) => host.doc.services.some((s) => s.service_name === name);

describe("GET /api/v2/hosts/search", () => {
  it("returns every host by address with service summaries, location, AS and update time", async () => {
    const hosts = await hostFacts();
    expect(hosts.length).toBeGreaterThan(HOSTS_PER_PAGE_MAX);
    const result = await searchPage(`per_page=${HOSTS_PER_PAGE_MAX}`);
    expect(result.total).toBe(hosts.length);
    expect(result.query).toBe("");
    expect(result.links.prev).toBe("");
    expect(result.links.next).not.toBe("");
    expect(result.hits).toEqual(
      hosts.slice(0, HOSTS_PER_PAGE_MAX).map(({ doc }) => ({
        ip: doc.ip,
        services: [...doc.services]
          .sort((a, b) => a.port - b.port || a.transport_protocol.localeCompare(b.transport_protocol))
          .map(({ port, service_name, extended_service_name, transport_protocol }) => ({
            port,
            service_name,
            extended_service_name,
            transport_protocol,
          })),
        location: doc.location,
        autonomous_system: doc.autonomous_system,
        last_updated_at: doc.last_updated_at,
      })),
    );
  });

  it("matches a service field, reading + in q as a space", async () => {
    const hosts = await hostFacts();
    const expected = hosts.filter((h) => hasService(h, "SSH")).map((h) => h.ip);
    expect(expected.length).toBeGreaterThan(0);
    const result = await searchPage("q=services.service_name:+SSH&per_page=100");
    expect(result.query).toBe("services.service_name: SSH");
    expect(result.total).toBe(expected.length);
    expect(result.hits.map((h) => h.ip)).toEqual(expected.slice(0, 100));
  });

  it("ANDs adjacent terms (v2 dialect)", async () => {
    const hosts = await hostFacts();
    const expected = hosts.filter(
      (h) => hasService(h, "HTTP") && h.doc.location?.country === "United States",
    );
    const result = await searchPage(
      params({ q: 'services.service_name: HTTP location.country: "United States"' }),
    );
    expect(result.total).toBe(expected.length);
    expect(expected.length).toBeLessThan(hosts.filter((h) => hasService(h, "HTTP")).length);
  });

  it("scopes conditions to one service with services: (...)", async () => {
    const hosts = await hostFacts();
    const expected = hosts.filter((h) =>
      h.doc.services.some((s) => s.port === 80 && s.service_name === "HTTP"),
    );
    expect(expected.length).toBeGreaterThan(0);
    const result = await searchPage(
      params({ q: "services: (port: 80 and service_name: HTTP)", per_page: 100 }),
    );
    expect(result.total).toBe(expected.length);
    expect(result.hits.map((h) => h.ip)).toEqual(expected.slice(0, 100).map((h) => h.ip));
  });

  it("returns the requested fields (repeated or comma separated) instead of the summary", async () => {
    const [host] = await hostFacts();
    const result = await searchPage(
      `q=ip:+${host!.ip}&fields=location.country&fields=services.port,services.service_name`,
    );
    expect(result.hits).toEqual([
      {
        ip: host!.ip,
        location: { country: host!.doc.location?.country },
        services: host!.doc.services.map((s) => ({ port: s.port, service_name: s.service_name })),
      },
    ]);
  });

  it("answers per_page=0 with the total and no hits or links", async () => {
    const hosts = await hostFacts();
    const result = await searchPage("per_page=0");
    expect(result).toMatchObject({ total: hosts.length, hits: [], links: { prev: "", next: "" } });
  });

  it("walks forward with links.next until it is empty, seeing every host once", async () => {
    const hosts = await hostFacts();
    const seen: string[] = [];
    let query = params({ per_page: 2 });
    let pages = 0;
    for (;;) {
      const result = await searchPage(query);
      expect(result.total).toBe(hosts.length);
      expect(result.links.prev === "").toBe(pages === 0);
      seen.push(...result.hits.map((h) => h.ip));
      pages++;
      if (result.links.next === "") break;
      query = params({ per_page: 2, cursor: result.links.next });
    }
    expect(pages).toBe(Math.ceil(hosts.length / 2));
    expect(seen).toEqual(hosts.map((h) => h.ip));
  });

  it("walks back with links.prev: the second page's prev gives the first page", async () => {
    const first = await searchPage(params({ per_page: 2 }));
    const second = await searchPage(params({ per_page: 2, cursor: first.links.next }));
    const third = await searchPage(params({ per_page: 2, cursor: second.links.next }));
    const backToSecond = await searchPage(params({ per_page: 2, cursor: third.links.prev }));
    const backToFirst = await searchPage(params({ per_page: 2, cursor: backToSecond.links.prev }));
    expect(backToSecond.hits).toEqual(second.hits);
    expect(backToFirst.hits).toEqual(first.hits);
    expect(backToFirst.links.prev).toBe("");
    const forwardAgain = await searchPage(params({ per_page: 2, cursor: backToFirst.links.next }));
    expect(forwardAgain.hits).toEqual(second.hits);
  });

  it.each([
    ["per_page above 100", "per_page=101"],
    ["a negative per_page", "per_page=-1"],
    ["a per_page that is not a number", "per_page=ten"],
  ])("refuses %s with a v2 400", async (_what, query) => {
    const { res, body } = await getJson(`/api/v2/hosts/search?${query}`);
    expect(res.status).toBe(400);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 400, status: "Bad Request" });
    expect(String(body.error)).toMatch(/per_page/);
  });

  it("refuses a query that does not parse with 422, the position and the token", async () => {
    const { res, body } = await getJson(`/api/v2/hosts/search?${params({ q: "services.port: [22 TO" })}`);
    expect(res.status).toBe(422);
    const error = v2InvalidQueryErrorSchema.parse(body);
    expect(error).toMatchObject({
      code: 422,
      status: "Unprocessable Entity",
      error: "Invalid search. Your query could not be parsed",
    });
    expect(typeof error.position).toBe("number");
    expect(typeof error.token).toBe("string");
  });

  it("refuses a query on an unknown field with 422 naming it", async () => {
    const { res, body } = await getJson(`/api/v2/hosts/search?${params({ q: "services.nope: 1" })}`);
    expect(res.status).toBe(422);
    expect(String(body.detail)).toContain("services.nope");
  });
});

describe("GET /api/v2/hosts/search cursors", () => {
  async function nextCursor(q: string, perPage: number): Promise<string> {
    const result = await searchPage(params({ q, per_page: perPage }));
    expect(result.links.next).not.toBe("");
    return result.links.next;
  }

  async function expectCursorRefused(query: string, message: RegExp): Promise<void> {
    const { res, body } = await getJson(`/api/v2/hosts/search?${query}`);
    expect(res.status).toBe(400);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 400, status: "Bad Request" });
    expect(String(body.error)).toMatch(message);
  }

  it("refuses a cursor used with another q", async () => {
    const cursor = await nextCursor("", 2);
    await expectCursorRefused(
      params({ q: "services.port: 80", per_page: 2, cursor }),
      /different q or per_page/,
    );
  });

  it("refuses a cursor used with another per_page", async () => {
    const cursor = await nextCursor("", 2);
    await expectCursorRefused(params({ per_page: 3, cursor }), /different q or per_page/);
  });

  it("refuses a cursor whose payload was altered", async () => {
    const cursor = await nextCursor("", 2);
    const [payload, signature] = cursor.split(".");
    const decoded = JSON.parse(new TextDecoder().decode(fromBase64Url(payload!)!)) as { k: number };
    decoded.k = 0;
    const forged = `${toBase64Url(new TextEncoder().encode(JSON.stringify(decoded)))}.${signature}`;
    await expectCursorRefused(params({ per_page: 2, cursor: forged }), /signature is invalid/);
  });

  it("refuses text that is not a cursor at all", async () => {
    await expectCursorRefused(params({ per_page: 2, cursor: "page-2" }), /not a cursor/);
  });

  it("refuses a cursor signed with another secret", async () => {
    const cursor = await nextCursor("", 2);
    const app = createApp();
    const res = await app.fetch(
      new Request(`http://origin.test/api/v2/hosts/search?${params({ per_page: 2, cursor })}`, {
        headers: { Authorization: defaultAuth() },
      }),
      { ...env, CURSOR_SECRET: "a-different-production-secret" },
      createExecutionContext(),
    );
    expect(res.status).toBe(400);
  });
});
