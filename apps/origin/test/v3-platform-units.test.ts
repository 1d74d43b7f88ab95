import { describe, expect, it } from "vitest";
import type { HostVersionDocument } from "../src/services/host-events";
import { conditionQuery, cenqlString } from "../src/services/v3-censeye";
import { compareIps, resolutionBounds, type Resolution } from "../src/services/v3-dns";
import { historyWindow, presenceRanges, versionSpans, withinWindow } from "../src/services/v3-presence";
import { parseAssetId } from "../src/services/v3-records";
import { serviceHistory } from "../src/services/v3-service-history";
import { operationState, pageTime, type OperationRecord } from "../src/services/v3-tag-operations";

/** The Platform's pure pieces, on their own. */

const DAY = 86_400_000;
/** A version document that holds just `keys` (what keysOf reads). */
const doc = (...keys: string[]) => ({ keys }) as unknown as HostVersionDocument["doc"];
const keysOf = (d: unknown) => new Map((d as { keys: string[] }).keys.map((k) => [k, true]));

describe("presence over a history", () => {
  it("ends each version where the next begins, the last at the host's last sighting", () => {
    const spans = versionSpans(
      [
        { validFrom: 10, doc: {} },
        { validFrom: 0, doc: {} },
      ],
      25,
    );
    expect(spans.map(({ start, end }) => [start, end])).toEqual([
      [0, 10],
      [10, 25],
    ]);
  });

  it("makes one range per run of consecutive versions holding a key", () => {
    const spans = versionSpans(
      [
        { validFrom: 0, doc: doc("a", "b") },
        { validFrom: 10, doc: doc("a") },
        { validFrom: 20, doc: doc("a", "b") },
      ],
      30,
    );
    expect(presenceRanges(spans, keysOf).map(({ key, start, end }) => [key, start, end])).toEqual([
      ["a", 0, 30],
      ["b", 0, 10],
      ["b", 20, 30],
    ]);
  });

  it("clips ranges to a window and drops those outside it", () => {
    const ranges = [
      { start: 0, end: 10 },
      { start: 20, end: 30 },
    ];
    expect(withinWindow(ranges, 5, 15)).toEqual([{ start: 5, end: 10 }]);
  });

  it("takes a window up to now, at most the widest, and refuses one reversed or in the future", () => {
    const limits = { maxDays: 10, skewMs: 0 };
    const fail = (location: string) => new Error(location);
    expect(historyWindow({}, 100 * DAY, limits, fail)).toEqual({ from: 90 * DAY, to: 100 * DAY });
    expect(() =>
      historyWindow({ end_time: new Date(101 * DAY).toISOString() }, 100 * DAY, limits, fail),
    ).toThrow("query.end_time");
    const reversed = {
      start_time: new Date(50 * DAY).toISOString(),
      end_time: new Date(40 * DAY).toISOString(),
    };
    expect(() => historyWindow(reversed, 100 * DAY, limits, fail)).toThrow("query.start_time");
    expect(() => historyWindow({ start_time: new Date(0).toISOString() }, 100 * DAY, limits, fail)).toThrow(
      "query.start_time",
    );
  });
});

describe("DNS bounds", () => {
  it("merge a key's ranges into its earliest start and latest end, addresses in numeric order", () => {
    const r = (ip: string, start: number, end: number): Resolution => ({
      name: "n",
      ip,
      recordType: "A",
      start,
      end,
    });
    const merged = resolutionBounds(
      [r("10.0.0.2", 5, 9), r("10.0.0.2", 1, 3), r("9.0.0.1", 2, 4)],
      (x) => x.ip,
    );
    expect(merged.map(({ ip, start, end }) => [ip, start, end])).toEqual([
      ["10.0.0.2", 1, 9],
      ["9.0.0.1", 2, 4],
    ]);
    expect(["10.0.0.2", "9.0.0.1", "10.0.0.10"].sort(compareIps)).toEqual([
      "9.0.0.1",
      "10.0.0.2",
      "10.0.0.10",
    ]);
  });
});

describe("asset ids", () => {
  it("name hosts, certificates and web properties, as kept", () => {
    expect(parseAssetId("1.2.3.4")).toEqual({ type: "host", id: "1.2.3.4" });
    expect(parseAssetId("A".repeat(64))).toEqual({ type: "certificate", id: "a".repeat(64) });
    expect(parseAssetId("Shop.Example.com:8443")).toEqual({
      type: "web_property",
      id: "shop.example.com:8443",
    });
    for (const text of ["example.com", "1.2.3.4:0", "a b:80", ""]) expect(parseAssetId(text)).toBeNull();
  });
});

describe("count conditions", () => {
  it("hold service pairs on one service, root pairs on the document, and refuse mixed objects", () => {
    expect(
      conditionQuery([
        { field: "host.services.port", value: "22" },
        { field: "host.services.protocol", value: 'S"H' },
      ]),
    ).toBe('host.services: (port = "22" and protocol = "S\\"H")');
    expect(conditionQuery([{ field: "host.location.country", value: "Germany" }])).toBe(
      'host.location.country = "Germany"',
    );
    expect(
      conditionQuery([
        { field: "host.services.port", value: "22" },
        { field: "host.location.country", value: "Germany" },
      ]),
    ).toBeNull();
    expect(cenqlString("a\\b")).toBe('"a\\\\b"');
  });
});

describe("service history order", () => {
  it("orders by the columns asked, then port, transport and protocol, ports as strings", () => {
    const r = (port: number, protocol: string, start = 0) => ({
      port,
      transport: "tcp",
      protocol,
      start,
      end: start + 1,
    });
    const ranges = serviceHistory("1.1.1.1", [r(80, "HTTP"), r(22, "SSH"), r(443, "HTTP")], {}, [
      "protocol DESC",
    ]);
    expect(ranges.map((x) => `${x.protocol}/${x.port}`)).toEqual(["SSH/22", "HTTP/80", "HTTP/443"]);
    expect(serviceHistory("1.1.1.1", [r(80, "HTTP")], { protocol: "http" }, [])[0]?.port).toBe("80");
  });
});

describe("bulk operation progress", () => {
  const op = (cancelledAt: number | null = null): OperationRecord => ({
    id: "top_x",
    organizationId: "o",
    tagId: "t",
    tagName: "t",
    type: "bulk_create",
    query: "q",
    totalCount: 250,
    pages: [
      [100, 90],
      [100, 100],
      [50, 50],
    ],
    outcome: "succeeded",
    createdBy: "u",
    createdAt: 0,
    cancelledAt,
  });

  it("is pending, then running a page at a time, then its outcome, by the clock", () => {
    expect(operationState(op(), pageTime(0, 0) - 1)).toMatchObject({ status: "pending", processed: 0 });
    expect(operationState(op(), pageTime(0, 1))).toMatchObject({
      status: "running",
      processed: 200,
      successful: 190,
    });
    expect(operationState(op(), pageTime(0, 2))).toMatchObject({
      status: "succeeded",
      processed: 250,
      successful: 240,
      endedAt: pageTime(0, 2),
    });
  });

  it("stops at a cancellation, keeping the pages done before it", () => {
    const cancelled = op(pageTime(0, 0) + 1);
    expect(operationState(cancelled, pageTime(0, 2) + 10)).toMatchObject({
      status: "cancelled",
      processed: 100,
      successful: 90,
      endedAt: pageTime(0, 0) + 1,
    });
  });
});
