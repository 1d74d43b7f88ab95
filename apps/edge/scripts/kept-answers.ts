// pnpm --filter @scangate/edge kept-answers: what each answer an edge isolate keeps for the
// requests after the first saves them, measured in one run of this Node's V8 (the engine workerd
// runs). The edge README names these figures beside what it keeps.
import { parseBasicAuth, textsEqual } from "@scangate/core/http";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { createApp } from "../src/app";
import { hashSecret, newApiSecret, newPlatformToken, secretMatchesHash } from "../src/auth/secrets";
import { BoundedMemo } from "../src/http/bounded-memo";
import { RememberedRoutes } from "../src/http/remembered-routes";

const ROUNDS = 200_000;
const ASYNC_ROUNDS = 20_000;

/** Microseconds per call of `work`, after as many calls to warm it up. */
function perCall(work: () => unknown, rounds = ROUNDS): number {
  for (let i = 0; i < rounds; i++) work();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) work();
  return ((performance.now() - started) * 1000) / rounds;
}

async function perAsyncCall(work: () => Promise<unknown>, rounds = ASYNC_ROUNDS): Promise<number> {
  for (let i = 0; i < rounds; i++) await work();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await work();
  return ((performance.now() - started) * 1000) / rounds;
}

const rows: Array<{ kept: string; workedOut: number; keptCost: number }> = [];

// The route of each request: Hono's default router against the same router with its answers
// remembered per method and path, over the edge's own routes and middleware.
const app = createApp();
const fresh = new SmartRouter<unknown>({ routers: [new RegExpRouter(), new TrieRouter()] });
const remembered = new RememberedRoutes<unknown>();
for (const route of app.routes) {
  fresh.add(route.method, route.path, route.handler);
  remembered.add(route.method, route.path, route.handler);
}
const fingerprint = "9d3b5f2a8e1c4d7b6a0f3e2d1c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b";
for (const path of [`/api/v1/view/certificates/${fingerprint}`, "/v3/global/asset/host/192.0.2.1"]) {
  rows.push({
    kept: `route of GET ${path.replace(fingerprint, ":sha256")}`,
    workedOut: perCall(() => fresh.match("GET", path)),
    keptCost: perCall(() => remembered.match("GET", path)),
  });
}

// The Basic credentials of an Authorization value.
const request = new Request("https://edge.example/api/v1/account", {
  headers: { Authorization: `Basic ${btoa(`${crypto.randomUUID()}:${newApiSecret()}`)}` },
});
const header = request.headers.get("Authorization") ?? "";
const parsed = new BoundedMemo<unknown>(256);
rows.push({
  kept: "Basic credentials of an Authorization value",
  workedOut: perCall(() => parseBasicAuth(request)),
  keptCost: perCall(() => parsed.get(header) ?? parsed.remember(header, parseBasicAuth(request))),
});

// A Platform token's SHA-256 (the key its row is found by), and a Basic secret that matched
// its stored hash (kept, and compared in constant time).
const token = newPlatformToken();
const hashes = new BoundedMemo<string>(1024, 512);
hashes.remember(token, await hashSecret(token));
rows.push({
  kept: "hash of a Platform bearer token",
  workedOut: await perAsyncCall(() => hashSecret(token)),
  keptCost: perCall(() => hashes.get(token)),
});
const secret = newApiSecret();
const stored = await hashSecret(secret);
// Another string of the same text, as the presented secret is (decoded from its header).
const verified = secret.split("").join("");
rows.push({
  kept: "check of a Basic secret that matched",
  workedOut: await perAsyncCall(() => secretMatchesHash(secret, stored)),
  keptCost: perCall(() => textsEqual(verified, secret)),
});

const width = Math.max(...rows.map((r) => r.kept.length));
console.log(`${"kept answer".padEnd(width)}  worked out µs  kept µs  ratio`);
for (const row of rows) {
  console.log(
    `${row.kept.padEnd(width)}  ${row.workedOut.toFixed(3).padStart(13)}  ${row.keptCost.toFixed(3).padStart(7)}  ${(row.workedOut / row.keptCost).toFixed(0).padStart(5)}`,
  );
}
