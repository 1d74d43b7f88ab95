import { describe, it } from "vitest";
import { rawResultDetailsSchema, rawSeriesDetailsSchema, rawSeriesListSchema } from "../src/index";
import { FP } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

const BASE = "https://scangate.example/api/v1/data";
const latest = {
  timestamp: "20240102T030405",
  name: "20240102T0304",
  details_url: `${BASE}/ipv4/20240102T0304`,
};
const primary = {
  id: "ipv4",
  name: "IPv4 snapshots",
  description: "Daily IPv4 scans",
  details_url: `${BASE}/ipv4`,
  latest_result: latest,
};
const raw = {
  ...primary,
  id: "22-ssh-banner-full_ipv4",
  protocol: "ssh",
  subprotocol: "banner",
  destination: "full_ipv4",
  port: 22,
};

describe("raw-data series list", () => {
  it("accepts primary and raw series maps keyed by id", () => {
    accepts(rawSeriesListSchema, { primary_series: { ipv4: primary }, raw_series: { [raw.id]: raw } });
  });
  it("refuses a raw entry without its port, a bad latest_result timestamp and a missing map", () => {
    const { port: _port, ...noPort } = raw;
    rejects(rawSeriesListSchema, { primary_series: {}, raw_series: { x: noPort } }, [
      "raw_series",
      "x",
      "port",
    ]);
    rejects(rawSeriesListSchema, {
      primary_series: {
        ipv4: { ...primary, latest_result: { ...latest, timestamp: "2024-01-02T03:04:05" } },
      },
      raw_series: {},
    });
    rejects(rawSeriesListSchema, { primary_series: {} }, ["raw_series"]);
    rejects(rawSeriesListSchema, { primary_series: {}, raw_series: { x: { ...raw, port: 70000 } } });
  });
});

describe("raw-data series details", () => {
  const ref = {
    timestamp: "20240102T030405",
    id: "20240102T0304",
    details_url: `${BASE}/${raw.id}/20240102T0304`,
  };
  const details = {
    id: raw.id,
    name: raw.name,
    description: raw.description,
    protocol: "ssh",
    subprotocol: "banner",
    destination: "full_ipv4",
    port: 22,
    results: { historical: [ref], latest: ref },
  };
  it("accepts historical and latest results", () => {
    accepts(rawSeriesDetailsSchema, details);
  });
  it("refuses a port given as a string", () =>
    rejects(rawSeriesDetailsSchema, { ...details, port: "22" }, ["port"]));
});

describe("raw-data result details", () => {
  const file = {
    file_type: "json",
    schema: null,
    download_path: `${BASE}/files/a.json`,
    sha256_fingerprint: FP,
    size: 1024,
  };
  const result = {
    id: "20240102T0304",
    timestamp: "20240102T030405",
    files: {
      "zgrab-results": file,
      "zgrab-schema": { ...file, file_type: "csv", schema: { ip: { type: "string" } } },
    },
  };
  it("accepts files with a null or field-type schema", () => {
    accepts(rawResultDetailsSchema, result);
  });
  it("refuses a non-hex checksum, a negative size and a malformed id", () => {
    rejects(rawResultDetailsSchema, {
      ...result,
      files: { f: { ...file, sha256_fingerprint: "z".repeat(64) } },
    });
    rejects(rawResultDetailsSchema, { ...result, files: { f: { ...file, size: -1 } } });
    rejects(rawResultDetailsSchema, { ...result, id: "20240102" }, ["id"]);
  });
});
