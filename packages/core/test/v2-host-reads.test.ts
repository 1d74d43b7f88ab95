import { describe, expect, it } from "vitest";
import {
  booleanParamSchema,
  certificateHostsQuerySchema,
  certificateHostsResultSchema,
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  hostNamesQuerySchema,
  hostNamesResultSchema,
  LIMITS,
} from "../src/index";
import { accepts, rejects } from "./schema-assertions";

const FP = "fb444eb8e68437bae06232b9f5091bccff62a768ca09e92eb5c9c2cf9d17c426";

describe("host names", () => {
  it("page 100 names by default, 1 to 1000", () => {
    expect(accepts(hostNamesQuerySchema, {})).toEqual({ per_page: LIMITS.HOST_NAMES_PER_PAGE_DEFAULT });
    expect(accepts(hostNamesQuerySchema, { per_page: "1000", cursor: "c" })).toEqual({
      per_page: 1000,
      cursor: "c",
    });
    rejects(hostNamesQuerySchema, { per_page: "0" }, ["per_page"]);
    rejects(hostNamesQuerySchema, { per_page: "1001" }, ["per_page"]);
    rejects(hostNamesQuerySchema, { per_page: "ten" }, ["per_page"]);
  });

  it("answer the names with links, as the client's fixture has them", () => {
    accepts(hostNamesResultSchema, {
      names: ["google.com", "google.co.uk", "google.com.au", "dns.google"],
      links: { prev: "prevCursorToken", next: "nextCursorToken" },
    });
    rejects(hostNamesResultSchema, { names: ["a.example"] }, ["links"]);
    rejects(hostNamesResultSchema, { names: [1], links: { prev: "", next: "" } }, ["names", 0]);
  });
});

describe("host diff", () => {
  it("takes a second IP and two RFC 3339 times, all optional", () => {
    expect(accepts(hostDiffQuerySchema, {})).toEqual({});
    accepts(hostDiffQuerySchema, {
      ip_b: "1.1.1.2",
      at_time: "2021-07-01T00:00:00.000000Z",
      at_time_b: "2021-07-31T00:00:00.000000Z",
    });
    rejects(hostDiffQuerySchema, { ip_b: "1.1.1" }, ["ip_b"]);
    rejects(hostDiffQuerySchema, { at_time: "2021-07-01" }, ["at_time"]);
  });

  it("answers two sides and a JSON patch", () => {
    const body = {
      a: { ip: "1.1.1.1", last_updated_at: "2022-01-10T15:41:27.416Z" },
      b: { ip: "1.1.1.2", last_updated_at: "2022-01-10T15:41:27.416Z" },
      patch: [
        { op: "replace", path: "/ip", value: "1.1.1.2" },
        { op: "remove", path: "/services/1" },
        { op: "add", path: "/services/-", value: { port: 22 } },
      ],
    };
    accepts(hostDiffResultSchema, body);
    rejects(hostDiffResultSchema, { ...body, patch: [{ op: "move", path: "/a", from: "/b" }] }, [
      "patch",
      0,
      "op",
    ]);
    rejects(hostDiffResultSchema, { ...body, a: { ip: "x", last_updated_at: "" } }, ["a", "ip"]);
  });
});

describe("host events", () => {
  it("default to 50 events oldest first, and take the client's reversed=True", () => {
    expect(accepts(hostEventsQuerySchema, {})).toEqual({ reversed: false, per_page: 50 });
    expect(accepts(hostEventsQuerySchema, { reversed: "True", per_page: "1" })).toMatchObject({
      reversed: true,
      per_page: 1,
    });
    expect(accepts(hostEventsQuerySchema, { reversed: "false" }).reversed).toBe(false);
    rejects(hostEventsQuerySchema, { reversed: "yes" }, ["reversed"]);
    rejects(hostEventsQuerySchema, { per_page: "51" }, ["per_page"]);
    rejects(hostEventsQuerySchema, { start_time: "yesterday" }, ["start_time"]);
  });

  it("answer the client's fixture", () => {
    accepts(hostEventsResultSchema, {
      ip: "8.8.8.8",
      events: [
        {
          _event: "service_observed",
          service_observed: {
            id: { port: 443, transport_protocol: "TCP", service_name: "HTTP" },
            observed_at: "2021-07-27T18:00:11.296Z",
            perspective_id: "PERSPECTIVE_NTT",
            changed_fields: [{ field_name: "services.banner" }],
          },
          timestamp: "2021-07-27T18:00:11.296Z",
        },
        {
          _event: "location_updated",
          location_updated: { location: { continent: "North America", country_code: "US" } },
          timestamp: "2021-07-27T18:00:11.297Z",
        },
      ],
      links: { prev: "", next: "" },
    });
    rejects(
      hostEventsResultSchema,
      { ip: "8.8.8.8", events: [{ _event: "x", timestamp: "now" }], links: { prev: "", next: "" } },
      ["events", 0, "timestamp"],
    );
  });
});

describe("boolean query parameters", () => {
  it.each([
    ["True", true],
    ["true", true],
    ["1", true],
    ["False", false],
    ["0", false],
  ])("read %s as %s", (text, value) => {
    expect(booleanParamSchema.parse(text)).toBe(value);
  });
});

describe("hosts by certificate", () => {
  it("page 100 hosts by default", () => {
    expect(accepts(certificateHostsQuerySchema, {})).toEqual({ per_page: 100 });
    rejects(certificateHostsQuerySchema, { per_page: "101" }, ["per_page"]);
  });

  it("answer hosts with their observation times, and links", () => {
    const host = {
      ip: "1.2.3.4",
      observed_at: "2021-08-02T14:56:38.711Z",
      first_observed_at: "2021-08-02T14:56:38.711Z",
    };
    accepts(certificateHostsResultSchema, {
      fingerprint: FP,
      hosts: [host, { ...host, name: "www.example.com" }],
      links: { prev: "", next: "nextCursorToken" },
    });
    rejects(certificateHostsResultSchema, { hosts: [{ ip: "1.2.3.4" }], links: { prev: "", next: "" } }, [
      "hosts",
      0,
      "observed_at",
    ]);
  });
});
