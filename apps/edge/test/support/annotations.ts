import { reasonPhrase, tagSchema, v2Envelope, v2ErrorSchema, type TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { buildRequest, tenantAuth, type Fetch } from "./requests";

// What the annotation tests (annotations, annotation-limits, annotation-text) share: calls as
// a tenant, answer checks, a look at the stored rows, and rows seeded straight into D1 where a
// test needs the team near a cap.

export const FP = "fb444eb8e68437bae06232b9f5091bccff62a768ca09e92eb5c9c2cf9d17c426";
export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
export const tagEnvelope = v2Envelope(tagSchema);

/** A call as `tenant` through `fetcher` (a test edge's). */
export function callAs(
  fetcher: Fetch,
  tenant: TenantWithSecret,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetcher(buildRequest(method, path, { auth: tenantAuth(tenant), body }));
}

export async function ok<T>(res: Response, schema: { parse(value: unknown): T }, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return schema.parse(JSON.parse(text));
}

/** A JSON error in the v2 shape with `status`, its text matching `message`. */
export async function expectError(res: Response, status: number, message?: RegExp): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = v2ErrorSchema.parse(JSON.parse(text));
  expect(body).toMatchObject({ code: status, status: reasonPhrase(status) });
  if (message) expect(body.error).toMatch(message);
}

/** Everything the annotation tables hold, to show a refused request changed nothing. */
export async function annotationTables(): Promise<unknown[]> {
  return Promise.all(
    ["annotation_tags", "annotation_tagged", "annotation_comments"].map(
      async (table) => (await env.DB.prepare(`select * from ${table} order by rowid`).all()).results,
    ),
  );
}

export async function countOf(table: string, where = "1 = 1", ...values: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where ${where}`)
    .bind(...values)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

export async function createTag(
  fetcher: Fetch,
  tenant: TenantWithSecret,
  name = unique("tag"),
  color?: string,
) {
  const body = color ? { name, metadata: { color } } : { name };
  return (await ok(await callAs(fetcher, tenant, "POST", "/api/v2/tags", body), tagEnvelope)).result;
}

// Seeded rows carry `seed` as their creator and author and ids starting `seed_`, so a test can
// remove exactly what it seeded. One statement each: a recursive CTE makes the rows.
const SEED = "seed";
const upTo = (n: number) =>
  `with recursive n(i) as (select 1 where ${n} > 0 union all select i + 1 from n where i < ${n})`;

/** `n` tags named `<prefix>-<i>`, ids `seed_tag_<prefix>_<i>`. */
export async function seedTags(prefix: string, n: number): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tags (id, name, name_key, color, created_by, created_at, updated_at)
     select 'seed_tag_' || ?1 || '_' || i, ?1 || '-' || i, lower(?1) || '-' || i, null, '${SEED}', 0, 0 from n`,
  )
    .bind(prefix)
    .run();
}

/** The tag on `n` hosts 10.<i / 65536>.<i / 256 % 256>.<i % 256>. */
export async function seedTagOnHosts(tagId: string, n: number): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tagged (tag_id, "index", document, tagged_by, tagged_at)
     select ?1, 'hosts', '10.' || (i / 65536) || '.' || (i / 256 % 256) || '.' || (i % 256), '${SEED}', 0 from n`,
  )
    .bind(tagId)
    .run();
}

/** The seeded tags `<prefix>-1..n` on one document. */
export async function seedTagsOnDocument(prefix: string, n: number, host: string): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tagged (tag_id, "index", document, tagged_by, tagged_at)
     select 'seed_tag_' || ?1 || '_' || i, 'hosts', ?2, '${SEED}', 0 from n`,
  )
    .bind(prefix, host)
    .run();
}

/** `n` comments of `contents` on one host (`document`), or on `n` hosts when it is null. */
export async function seedComments(n: number, document: string | null, contents = "seeded"): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_comments (id, "index", document, author_id, contents, created_at, updated_at)
     select 'seed_cmt_' || hex(randomblob(8)) || '_' || i, 'hosts',
       coalesce(?1, '10.0.' || (i / 256 % 256) || '.' || (i % 256)), '${SEED}', ?2, i, i from n`,
  )
    .bind(document, contents)
    .run();
}

/** Removes every seeded row (and the links of seeded tags). */
export async function removeSeeded(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare(`delete from annotation_tagged where tagged_by = '${SEED}' or tag_id like 'seed_%'`),
    env.DB.prepare(`delete from annotation_tags where created_by = '${SEED}'`),
    env.DB.prepare(`delete from annotation_comments where author_id = '${SEED}'`),
  ]);
}
