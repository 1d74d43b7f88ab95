import { v2ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { hostFacts, tally } from "./support/dataset-facts";
import { getJson } from "./support/requests";
import { v2Aggregate as aggregate } from "./support/v2-aggregate";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

describe("GET /api/v2/hosts/aggregate", () => {
  it("counts services, not hosts, for a service-level field, with string keys", async () => {
    const hosts = await hostFacts();
    const expected = tally(hosts.flatMap((h) => h.doc.services.map((s) => String(s.port))));
    const result = await aggregate({ field: "services.port" });
    expect(result).toEqual({
      query: "",
      field: "services.port",
      total: hosts.length,
      total_omitted: 0,
      potential_deviation: 0,
      buckets: expected,
    });
  });

  it("puts what the omitted buckets hold in total_omitted", async () => {
    const hosts = await hostFacts();
    const expected = tally(hosts.flatMap((h) => h.doc.services.map((s) => s.service_name)));
    const result = await aggregate({ field: "services.service_name", num_buckets: 1 });
    expect(result.buckets).toEqual(expected.slice(0, 1));
    expect(result.total_omitted).toBe(expected.slice(1).reduce((sum, b) => sum + b.count, 0));
  });

  it("aggregates only over the hosts the query matches", async () => {
    const hosts = (await hostFacts()).filter((h) => h.doc.services.some((s) => s.service_name === "SSH"));
    const expected = tally(hosts.flatMap((h) => h.doc.services.map((s) => String(s.port))));
    const result = await aggregate({ q: "services.service_name: SSH", field: "services.port" });
    expect(result.total).toBe(hosts.length);
    expect(result.buckets).toEqual(expected);
    expect(result.query).toBe("services.service_name: SSH");
  });

  it("counts hosts for a host-level field", async () => {
    const hosts = await hostFacts();
    const expected = tally(hosts.flatMap((h) => (h.doc.location?.country ? [h.doc.location.country] : [])));
    const result = await aggregate({ field: "location.country", num_buckets: 50 });
    expect(result.buckets).toEqual(expected);
  });

  it.each([
    ["no field", { num_buckets: 5 }, 400, /field/],
    ["num_buckets 0", { field: "services.port", num_buckets: 0 }, 400, /num_buckets/],
    ["num_buckets that is not a number", { field: "services.port", num_buckets: "many" }, 400, /num_buckets/],
    ["a field hosts do not have", { field: "services.nothing" }, 422, /services\.nothing/],
    [
      "a query that does not parse",
      { field: "services.port", q: "services.port: (22" },
      422,
      /Invalid search/,
    ],
  ])("refuses %s in the v2 error shape", async (_what, values, status, message) => {
    const query = new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString();
    const { res, body } = await getJson(`/api/v2/hosts/aggregate?${query}`);
    expect(res.status).toBe(status);
    expect(v2ErrorSchema.parse(body).code).toBe(status);
    expect(JSON.stringify(body)).toMatch(message);
  });
});
