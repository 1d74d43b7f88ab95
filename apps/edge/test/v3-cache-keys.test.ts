import { describe, expect, it } from "vitest";
import { CERTIFICATE, comparableAddress, HOST, WEBPROPERTY } from "../src/routes/v3/asset-kinds";
import { requestedInstant } from "../src/routes/v3/cached-assets";
import {
  mergePlatformBulk,
  notFoundProblem,
  readBulkRequest,
  splitPlatformBulk,
} from "../src/routes/v3/cached-bulks";

const FP = "AB".repeat(32);
const asset = (resource: Record<string, unknown>) => ({ resource, extensions: {} });
const bodyOf = (body: unknown) => JSON.stringify(body);

describe("v3 cache keys", () => {
  it("keys ids as the upstream reads them, and refuses what it refuses", () => {
    expect(CERTIFICATE.key(FP)).toBe(FP.toLowerCase());
    expect(CERTIFICATE.key("abc")).toBeNull();
    expect(WEBPROPERTY.key("Example.COM:443")).toBe("example.com:443");
    expect(WEBPROPERTY.key("example.com:0")).toBeNull();
    expect(WEBPROPERTY.key("example.com")).toBeNull();
    // A host address is looked up as spelled.
    expect(HOST.key("2001:DB8::1")).toBe("2001:DB8::1");
    expect(HOST.key("1.1.1.1")).toBe("1.1.1.1");
    expect(HOST.key("01.1.1.1")).toBeNull();
    expect(HOST.key("not-an-ip")).toBeNull();
  });

  it("compares IPv6 addresses in any spelling, IPv4 as is", () => {
    expect(comparableAddress("2001:DB8::1")).toBe("2001:db8:0:0:0:0:0:1");
    expect(comparableAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8:0:0:0:0:0:1");
    expect(comparableAddress("::ffff:192.0.2.1")).toBe("0:0:0:0:0:ffff:c000:201");
    expect(comparableAddress("::")).toBe("0:0:0:0:0:0:0:0");
    expect(comparableAddress("192.0.2.1")).toBe("192.0.2.1");
  });

  it("takes at_time only where the upstream does, once and well formed; organization_id changes nothing", () => {
    const params = (query: string) => new URLSearchParams(query);
    expect(requestedInstant(HOST, params(""))).toBeNull();
    expect(requestedInstant(HOST, params("organization_id=x"))).toBeNull();
    expect(requestedInstant(HOST, params("at_time=2026-01-01T00:00:00Z"))?.text).toBe("2026-01-01T00:00:00Z");
    expect(
      requestedInstant(HOST, params("at_time=2026-01-01T00:00:00Z&at_time=2026-01-02T00:00:00Z")),
    ).toBeUndefined();
    expect(requestedInstant(HOST, params("at_time=yesterday"))).toBeUndefined();
    expect(requestedInstant(HOST, params("x=1"))).toBeUndefined();
    expect(requestedInstant(CERTIFICATE, params("at_time=2026-01-01T00:00:00Z"))).toBeUndefined();
  });

  it("reads a bulk body into unique keys in first-asked order, or null when the cache cannot key it", () => {
    expect(readBulkRequest(CERTIFICATE, bodyOf({ certificate_ids: [FP, FP.toLowerCase()] }), "")).toEqual({
      unique: [FP.toLowerCase()],
      at: null,
    });
    const atTime = readBulkRequest(
      HOST,
      bodyOf({ host_ids: ["1.1.1.1"], at_time: "2026-01-01T00:00:00Z" }),
      "",
    );
    expect(atTime?.at?.text).toBe("2026-01-01T00:00:00Z");
    expect(readBulkRequest(HOST, bodyOf({ host_ids: ["1.1.1.1", "nope"] }), "")).toBeNull();
    expect(readBulkRequest(HOST, bodyOf({ host_ids: [] }), "")).toBeNull();
    expect(readBulkRequest(HOST, bodyOf({ host_ids: ["1.1.1.1"] }), "?x=1")).toBeNull();
    expect(readBulkRequest(HOST, bodyOf({ host_ids: ["1.1.1.1"] }), "?organization_id=o")).not.toBeNull();
    expect(readBulkRequest(HOST, "not json", "")).toBeNull();
  });
});

describe("v3 bulk answers", () => {
  it("splits an answer by the keys asked: found assets by their own id, the rest unknown", () => {
    const a = asset({ ip: "2001:db8::1" });
    const b = asset({ ip: "192.0.2.1" });
    const { entries, unattributed } = splitPlatformBulk(
      HOST,
      ["192.0.2.1", "2001:DB8::1", "192.0.2.9"],
      [a, b],
    );
    expect(unattributed).toEqual([]);
    expect(entries.get("2001:DB8::1")).toEqual({ text: JSON.stringify(a), unknown: false, present: true });
    expect(entries.get("192.0.2.1")?.text).toBe(JSON.stringify(b));
    expect(entries.get("192.0.2.9")).toEqual({
      text: "",
      row: notFoundProblem(HOST, "192.0.2.9"),
      unknown: true,
      present: true,
    });
  });

  it("keeps no negative row when an answered asset names no key asked", () => {
    const stray = asset({ ip: "198.51.100.1" });
    const { entries, unattributed } = splitPlatformBulk(HOST, ["192.0.2.1"], [stray]);
    expect(unattributed).toEqual([JSON.stringify(stray)]);
    expect(entries.get("192.0.2.1")?.present).toBe(false);
  });

  it("merges entries in the order asked, leaving unknown ones out", async () => {
    const entries = new Map([
      ["b", '{"resource":{"ip":"b"}}'],
      ["a", '{"resource":{"ip":"a"}}'],
      ["x", ""],
    ]);
    expect(JSON.parse(await mergePlatformBulk(["a", "x", "b"], entries, []).text())).toEqual({
      result: [{ resource: { ip: "a" } }, { resource: { ip: "b" } }],
    });
    expect(await mergePlatformBulk(["x"], entries, []).text()).toBe('{"result":[]}');
  });

  it("writes the not-found problem a single lookup answers", () => {
    expect(JSON.parse(notFoundProblem(CERTIFICATE, "ab"))).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Certificate ab not found.",
    });
  });
});
