import { Hono } from "hono";

interface Env {
  /** A certificate document from the origin's dataset, as JSON text (set by the bench). */
  DOCUMENT: string;
  /** Holds documents in a table shaped like the edge's cache (written by the bench). */
  DB: D1Database;
  /** The key of DOCUMENT in DB. */
  DOCUMENT_ID: string;
  /** JSON array of the keys /d1-bulk reads (their rows are in DB too). */
  BULK_IDS: string;
  /** The origin's /v3 answer for the view certificate, and its media type (set by the bench). */
  V3_ASSET: string;
  V3_ASSET_TYPE: string;
  /** The origin's /v3 answer for a bulk of the bulk certificates, and its media type. */
  V3_BULK: string;
  V3_BULK_TYPE: string;
}

const ROW = `SELECT * FROM documents WHERE "index" = 'certificates' AND at_time = ''`;

const app = new Hono<{ Bindings: Env }>();

// No parsing, no storage round trip: the reference is the cheapest way Hono can answer the same
// bytes a cached view answers.
app.get("/", (c) => c.body(c.env.DOCUMENT, 200, { "content-type": "application/json" }));

// The same bytes read by primary key from D1 on every request, as the edge reads a cached row:
// the runtime's own limit for anything that reads D1 once per request.
app.get("/d1", async (c) => {
  const row = await c.env.DB.prepare(`${ROW} AND id = ?`).bind(c.env.DOCUMENT_ID).first<{ body: string }>();
  if (!row) return c.json({ error: "document not stored" }, 500);
  return c.body(row.body, 200, { "content-type": "application/json" });
});

/** The 50 documents of a bulk answer, spliced into one JSON object as text. */
async function readBulk(env: Env): Promise<string | null> {
  const ids = JSON.parse(env.BULK_IDS) as string[];
  const { results } = await env.DB.prepare(`${ROW} AND id IN (${ids.map(() => "?").join(",")})`)
    .bind(...ids)
    .all<{ id: string; body: string }>();
  const bodies = new Map(results.map((row) => [row.id, row.body]));
  if (bodies.size !== ids.length) return null;
  return `{${ids.map((id) => `${JSON.stringify(id)}:${bodies.get(id) ?? "null"}`).join(",")}}`;
}

// Many rows in one D1 query, spliced into one JSON object as text: what a cached bulk answer
// costs the runtime before any of the edge's own work.
app.get("/d1-bulk", async (c) => {
  const body = await readBulk(c.env);
  if (body === null) return c.json({ error: "documents not stored" }, 500);
  return c.body(body, 200, { "content-type": "application/json" });
});

// The same bulk answer read once and then kept in memory: what sending its bytes costs, with no
// storage round trip (the edge answers a cached bulk from its memory tier too).
let storedBulk: string | null = null;
app.get("/bulk", async (c) => {
  storedBulk ??= await readBulk(c.env);
  if (storedBulk === null) return c.json({ error: "documents not stored" }, 500);
  return c.body(storedBulk, 200, { "content-type": "application/json" });
});

// The /v3 answers as the origin gave them, stored: the references of the edge's cached /v3
// lookups, single and bulk (the same bytes, no parsing, no storage round trip).
app.get("/v3-asset", (c) => c.body(c.env.V3_ASSET, 200, { "content-type": c.env.V3_ASSET_TYPE }));
app.get("/v3-bulk", (c) => c.body(c.env.V3_BULK, 200, { "content-type": c.env.V3_BULK_TYPE }));

export default app;
