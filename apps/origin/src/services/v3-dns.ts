import type { V3DnsIpRecord } from "@scangate/core";
import { hostNames } from "./host-names";
import type { HostHistory } from "./v3-host-histories";
import { presenceRanges, versionSpans, withinWindow, type HistoryWindow } from "./v3-presence";

/**
 * DNS resolutions from the dataset's history: a name resolves to a host while the host answers
 * for it, that is while the name is among the host's names (`hostNames`, the names the legacy
 * `GET /api/v2/hosts/{ip}/names` lists: its certificates' names and the names its HTTP services
 * were reached by). A resolution is a run of consecutive versions of the host holding the name,
 * from the first version's start to the last one's end (the current version ends when the host
 * was last observed). Every record is an A record (AAAA for an IPv6 host); the dataset has no
 * MX, NS, SOA or TXT records, so filtering on those finds none.
 *
 * Ranges are clipped to the request's window. Bounds are the ranges of one name (by IP) or one
 * address (by name) merged: the earliest start and the latest end within the window.
 */

export type CertificateNames = ReadonlyMap<string, readonly string[]>;

export interface Resolution {
  name: string;
  ip: string;
  recordType: "A" | "AAAA";
  start: number;
  end: number;
}

const recordTypeOf = (ip: string): "A" | "AAAA" => (ip.includes(":") ? "AAAA" : "A");

/** Every resolution of a host's history within the window, by name then start. */
export function hostResolutions(
  history: HostHistory,
  certificateNames: CertificateNames,
  window: HistoryWindow,
): Resolution[] {
  const spans = versionSpans(history.versions, history.lastSeen);
  const ranges = presenceRanges(
    spans,
    (doc) => new Map(hostNames(doc, certificateNames).map((name) => [name, true])),
  );
  return withinWindow(ranges, window.from, window.to).map((range) => ({
    name: range.key,
    ip: history.ip,
    recordType: recordTypeOf(history.ip),
    start: range.start,
    end: range.end,
  }));
}

/** The resolutions of `name` over several hosts' histories, by address then start. */
export function nameResolutions(
  name: string,
  histories: readonly HostHistory[],
  certificateNames: CertificateNames,
  window: HistoryWindow,
): Resolution[] {
  return histories
    .flatMap((history) => hostResolutions(history, certificateNames, window).filter((r) => r.name === name))
    .sort((a, b) => compareIps(a.ip, b.ip) || a.start - b.start);
}

/** Resolutions merged per `keyOf`: the earliest start and latest end of each, in first-seen key order. */
export function resolutionBounds(
  resolutions: readonly Resolution[],
  keyOf: (resolution: Resolution) => string,
): Resolution[] {
  const bounds = new Map<string, Resolution>();
  for (const resolution of resolutions) {
    const key = keyOf(resolution);
    const bound = bounds.get(key);
    bounds.set(
      key,
      bound
        ? {
            ...bound,
            start: Math.min(bound.start, resolution.start),
            end: Math.max(bound.end, resolution.end),
          }
        : resolution,
    );
  }
  return [...bounds.values()];
}

/** Addresses in numeric order (IPv4 by value; anything else after, as text). */
export function compareIps(a: string, b: string): number {
  const value = (ip: string) => {
    const parts = ip.split(".");
    return parts.length === 4
      ? parts.reduce((n, part) => n * 256 + Number(part), 0)
      : Number.POSITIVE_INFINITY;
  };
  return value(a) - value(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A by-IP record as the SDK's `DnsIpResolutionRecord` reads it. */
export function ipRecord(resolution: Resolution, iso: (ms: number) => string): V3DnsIpRecord {
  return {
    domain: resolution.name,
    record_type: resolution.recordType,
    first_seen: iso(resolution.start),
    last_seen: iso(resolution.end),
  };
}
