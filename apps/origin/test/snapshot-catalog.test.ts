import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { historyDays } from "../src/snapshots/build";
import { loadSnapshotCatalog, snapshotCatalog } from "../src/snapshots/catalog";
import { snapshotSchema } from "../src/snapshots/series";
import { seedTestDataset } from "./seed-fixture";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";

let days: string[];

beforeAll(async () => {
  const summary = await seedTestDataset();
  const { results } = await env.DB.prepare("SELECT valid_from AS validFrom FROM host_history").all<{
    validFrom: number;
  }>();
  days = historyDays(results, summary.day.replaceAll("-", "")).slice(-3);
});

describe("snapshot catalog", () => {
  // Runs first: storage is per file, and nothing is published yet.
  it("is empty before anything is published", async () => {
    const catalog = await loadSnapshotCatalog(env.SNAPSHOTS);
    expect(catalog.days).toEqual([]);
    expect(catalog.tables("ipv4")).toEqual([]);
    expect(catalog.resolve("ipv4")).toBeNull();
  });

  it("lists the published days and each series' tables in date order", async () => {
    await seedDatasetAndSnapshots(3);
    const catalog = await loadSnapshotCatalog(env.SNAPSHOTS);
    expect(catalog.days).toEqual(days);
    expect(catalog.tables("certificates")).toEqual(days.map((day) => `certificates.${day}`));
    expect(catalog.schema("websites")).toBe(snapshotSchema("websites"));
    expect(catalog.tables("ipv4")).toEqual(days.map((day) => `ipv4.${day}`));
  });

  it("resolves a day's table, and a series alone or twice as its latest day, in any case", async () => {
    const catalog = await loadSnapshotCatalog(env.SNAPSHOTS);
    const [first, , latest] = days as [string, string, string];
    expect(catalog.resolve(`ipv4.${first}`)).toEqual({
      name: `ipv4.${first}`,
      series: "ipv4",
      day: first,
      schema: snapshotSchema("ipv4"),
    });
    for (const name of ["ipv4", "IPv4", "ipv4.ipv4", "IPV4.ipv4", `ipv4.${latest}`])
      expect(catalog.resolve(name)?.name).toBe(`ipv4.${latest}`);
    expect(catalog.resolve(`Certificates.${first}`)?.name).toBe(`certificates.${first}`);
    expect(catalog.resolve("websites.websites")?.schema.series).toBe("websites");
  });

  it("resolves nothing else", async () => {
    const catalog = await loadSnapshotCatalog(env.SNAPSHOTS);
    const [first] = days as [string];
    const before = String(Number(first) - 1);
    for (const name of [
      "hosts",
      `hosts.${first}`,
      `ipv4.${before}`,
      "ipv4.20991231",
      "ipv4.certificates",
      `ipv4.${first}.x`,
      `ipv4.${first.slice(0, 7)}`,
      "ipv4_rows",
      "snapshot_days",
      "",
      ".",
    ])
      expect(catalog.resolve(name), name).toBeNull();
  });

  it("ignores tables built by another layout", async () => {
    const layout = await env.SNAPSHOTS.prepare("SELECT value FROM snapshot_meta WHERE key = 'layout'").first<{
      value: string;
    }>();
    await env.SNAPSHOTS.prepare("UPDATE snapshot_meta SET value = 'rows-1:older' WHERE key = 'layout'").run();
    try {
      expect((await loadSnapshotCatalog(env.SNAPSHOTS)).days).toEqual([]);
    } finally {
      await env.SNAPSHOTS.prepare("UPDATE snapshot_meta SET value = ? WHERE key = 'layout'")
        .bind(layout!.value)
        .run();
    }
    expect((await loadSnapshotCatalog(env.SNAPSHOTS)).days).toEqual(days);
  });

  it("of no days resolves nothing", () => {
    expect(snapshotCatalog([]).resolve("ipv4")).toBeNull();
    expect(snapshotCatalog(["20261031", "20261030"]).days).toEqual(["20261030", "20261031"]);
  });
});
