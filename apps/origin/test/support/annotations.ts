import { reasonPhrase, v2ErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { expect } from "vitest";

// What the origin's annotation tests share: answer checks, a look at the stored rows, and rows
// seeded straight into D1 for one account (`owner`) where a test needs it near a cap.

export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

export async function ok<T>(res: Response, schema: { parse(value: unknown): T }): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
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

/** How many rows of `table` the account owns (links: through their tags). */
export async function ownedCount(table: "annotation_tags" | "annotation_comments", owner: string) {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where owner = ?`)
    .bind(owner)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

// Seeded rows have ids starting `seed_`, so a test removes exactly what it seeded. One
// statement each: a recursive CTE makes the rows.
const upTo = (n: number) =>
  `with recursive n(i) as (select 1 where ${n} > 0 union all select i + 1 from n where i < ${n})`;

/** `n` tags of `owner` named `<prefix>-<i>`, ids `seed_tag_<prefix>_<i>`. */
export async function seedTags(owner: string, prefix: string, n: number): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tags (id, owner, name, name_key, color, created_at, updated_at)
     select 'seed_tag_' || ?2 || '_' || i, ?1, ?2 || '-' || i, lower(?2) || '-' || i, null, 0, 0 from n`,
  )
    .bind(owner, prefix)
    .run();
}

/** The tag on `n` hosts 10.<i / 65536>.<i / 256 % 256>.<i % 256>. */
export async function seedTagOnHosts(tagId: string, n: number): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tagged (tag_id, "index", document, tagged_at)
     select ?1, 'hosts', '10.' || (i / 65536) || '.' || (i / 256 % 256) || '.' || (i % 256), 0 from n`,
  )
    .bind(tagId)
    .run();
}

/** The seeded tags `<prefix>-1..n` on one host. */
export async function seedTagsOnDocument(prefix: string, n: number, host: string): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_tagged (tag_id, "index", document, tagged_at)
     select 'seed_tag_' || ?1 || '_' || i, 'hosts', ?2, 0 from n`,
  )
    .bind(prefix, host)
    .run();
}

/** `n` comments of `owner` on one host (`document`), or on `n` hosts when it is null. */
export async function seedComments(
  owner: string,
  n: number,
  document: string | null,
  contents = "seeded",
): Promise<void> {
  await env.DB.prepare(
    `${upTo(n)} insert into annotation_comments (id, owner, "index", document, contents, created_at, updated_at)
     select 'seed_cmt_' || hex(randomblob(8)) || '_' || i, ?1, 'hosts',
       coalesce(?2, '10.0.' || (i / 256 % 256) || '.' || (i % 256)), ?3, i, i from n`,
  )
    .bind(owner, document, contents)
    .run();
}

/** Removes every seeded row (and the links of seeded tags). */
export async function removeSeeded(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("delete from annotation_tagged where tag_id like 'seed_%' or tagged_at = 0"),
    env.DB.prepare("delete from annotation_tags where id like 'seed_%'"),
    env.DB.prepare("delete from annotation_comments where id like 'seed_%'"),
  ]);
}
