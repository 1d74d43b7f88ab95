import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { breakdownsCounted, countEveryBreakdown, markBreakdownsCounted } from "../src/services/aggregate";
import { fieldRegistry } from "../src/services/field-catalog";
import { seedTestDataset } from "./seed-fixture";
import { getJson } from "./support/requests";
import { v2Aggregate as aggregate } from "./support/v2-aggregate";
import { v3Post } from "./v3-requests";

// The breakdown of a field over every document is counted once per dataset and kept in
// `aggregate_memo` (src/services/aggregate.ts), by the seed for every field or else by the first
// request; these tests check that what it answers is what counting answers, and when it is (and
// is not) used.

beforeAll(() => seedTestDataset());
beforeEach(async () => {
  await env.DB.prepare("DELETE FROM aggregate_memo").run();
});

async function memoRows() {
  const { results } = await env.DB.prepare(
    "SELECT dataset, registry, field, buckets FROM aggregate_memo ORDER BY field",
  ).all<{ dataset: string; registry: string; field: string; buckets: string }>();
  return results;
}

/** A query every host matches, so the same breakdown is counted live (no memo). */
const EVERY_HOST = "ip: 0.0.0.0/0";

describe("aggregate memo", () => {
  it("answers every bucket count as counting the matching hosts does", async () => {
    for (const field of [
      "services.port",
      "location.country",
      "services.service_name",
      "autonomous_system.asn",
    ]) {
      for (const buckets of [1, 3, 25, 1000]) {
        const counted = await aggregate({ field, num_buckets: buckets, q: EVERY_HOST });
        const first = await aggregate({ field, num_buckets: buckets });
        const again = await aggregate({ field, num_buckets: buckets });
        expect({ ...first, query: EVERY_HOST }).toEqual(counted);
        expect(again).toEqual(first);
      }
    }
    const dataset = await env.DB.prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'").first<{
      value: string;
    }>();
    expect((await memoRows()).map((r) => [r.dataset, r.registry, r.field])).toEqual(
      ["autonomous_system.asn", "location.country", "services.port", "services.service_name"].map((f) => [
        dataset?.value,
        "hosts",
        f,
      ]),
    );
  });

  it("answers concurrent first requests alike and keeps one row", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => aggregate({ field: "services.port" })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await memoRows()).map((r) => r.field)).toEqual(["services.port"]);
  });

  it("reads the kept breakdown, and counts again once the dataset is another", async () => {
    const fresh = await aggregate({ field: "location.country" });
    // Marked rows show which answer came from the memo.
    await env.DB.prepare(
      `UPDATE aggregate_memo SET buckets = '[{"key":"Marked","count":7}]' WHERE field = 'location.country'`,
    ).run();
    expect((await aggregate({ field: "location.country" })).buckets).toEqual([{ key: "Marked", count: 7 }]);

    const meta = await env.DB.prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'").first<{
      value: string;
    }>();
    await env.DB.prepare("UPDATE dataset_meta SET value = 'reseeded' WHERE key = 'dataset'").run();
    try {
      expect(await aggregate({ field: "location.country" })).toEqual(fresh);
      expect((await memoRows()).map((r) => r.dataset)).toEqual(["reseeded"]);
    } finally {
      await env.DB.prepare("UPDATE dataset_meta SET value = ? WHERE key = 'dataset'").bind(meta?.value).run();
    }
  });

  it("keeps nothing for a filtered breakdown, a refused one, or a v3 one narrowed by its query", async () => {
    await aggregate({ field: "services.port", q: "services.service_name: SSH" });
    const { res } = await getJson("/api/v2/hosts/aggregate?field=no.such.field");
    expect(res.status).toBe(422);
    const narrowed = await v3Post("/v3/global/search/aggregate", {
      query: "host.services.protocol=SSH",
      number_of_buckets: 1000,
      field: "host.services.port",
      filter_by_query: true,
    });
    expect(narrowed.res.status).toBe(200);
    expect(await memoRows()).toEqual([]);
  });

  it("keeps each v3 count level apart, and the scope level answers as v2 does", async () => {
    type Answer = { result: { buckets: Array<{ key: string; count: number }> } };
    const ask = (more: Record<string, unknown>) =>
      v3Post<Answer>("/v3/global/search/aggregate", {
        query: "",
        field: "host.services.port",
        number_of_buckets: 25,
        ...more,
      });
    const byHost = await ask({ count_by_level: "host" });
    const byService = await ask({});
    expect(byHost.res.status).toBe(200);
    expect(byService.res.status).toBe(200);
    // v3 names its level (by document, or by the scope the values live in), so each is kept apart.
    expect((await memoRows()).map((r) => r.field)).toEqual([
      "services.port by document",
      "services.port by scope",
    ]);
    // Counted by its own scope, it is the v2 breakdown.
    const v2 = await aggregate({ field: "services.port", num_buckets: 25 });
    expect(byService.body.result.buckets).toEqual(
      v2.buckets.map((b) => ({ key: String(b.key), count: b.count })),
    );
    expect((await ask({ count_by_level: "host" })).body.result.buckets).toEqual(byHost.body.result.buckets);
  });
});

describe("breakdowns counted at the seed", () => {
  async function hostsRegistry() {
    return fieldRegistry(env.DB, "hosts");
  }

  async function keptRows() {
    const { results } = await env.DB.prepare(
      "SELECT registry, field, buckets, totals FROM aggregate_memo ORDER BY registry, field",
    ).all<{ registry: string; field: string; buckets: string; totals: string }>();
    return results;
  }

  it("keeps for every field the rows the first request of each field would have kept", async () => {
    const registry = await hostsRegistry();
    const kept = await countEveryBreakdown(env.DB, registry);
    const counted = await keptRows();
    expect(counted.length).toBe(kept);
    expect(kept).toBeGreaterThan(50);

    await env.DB.prepare("DELETE FROM aggregate_memo").run();
    for (const { field } of counted) {
      const { res } = await getJson(
        `/api/v2/hosts/aggregate?field=${encodeURIComponent(field)}&num_buckets=1000`,
      );
      expect(res.status, field).toBe(200);
    }
    expect(await keptRows()).toEqual(counted);
  });

  it("answers a request from the kept rows without counting, and counts nothing kept again", async () => {
    const registry = await hostsRegistry();
    const first = await countEveryBreakdown(env.DB, registry);
    // Marked rows show what answered, and whether a second run counted them again.
    await env.DB.prepare(`UPDATE aggregate_memo SET buckets = '[{"key":"Marked","count":7}]'`).run();
    expect(await countEveryBreakdown(env.DB, registry)).toBe(first);
    expect((await aggregate({ field: "services.port" })).buckets).toEqual([{ key: "Marked", count: 7 }]);
    const marked = await env.DB.prepare(
      `SELECT count(*) AS n FROM aggregate_memo WHERE buckets = '[{"key":"Marked","count":7}]'`,
    ).first<{ n: number }>();
    expect(marked?.n).toBe(first);
  });

  it("is marked done for the dataset it counted, and not once the dataset is another", async () => {
    await env.DB.prepare("DELETE FROM dataset_meta WHERE key = 'breakdowns'").run();
    expect(await breakdownsCounted(env.DB)).toBe(false);
    await markBreakdownsCounted(env.DB);
    expect(await breakdownsCounted(env.DB)).toBe(true);

    const meta = await env.DB.prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'").first<{
      value: string;
    }>();
    await env.DB.prepare("UPDATE dataset_meta SET value = 'reseeded' WHERE key = 'dataset'").run();
    try {
      expect(await breakdownsCounted(env.DB)).toBe(false);
    } finally {
      await env.DB.prepare("UPDATE dataset_meta SET value = ? WHERE key = 'dataset'").bind(meta?.value).run();
      await env.DB.prepare("DELETE FROM dataset_meta WHERE key = 'breakdowns'").run();
    }
  });
});
