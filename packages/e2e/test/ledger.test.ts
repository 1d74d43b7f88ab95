// A tenant's charges through the running edge (`pnpm start`: workerd, its ledger object, the
// origin), many at once: each request is its own request context in workerd, and the charges that
// wait for the tenant's previous ledger call go together in the next (ledger/charge-batches.ts).
import { expect, inject, it } from "vitest";
import { adminApi, basicAuth, createTenant, credentialOf } from "./support/edge-api";

const CONCURRENT = 120;
const ALLOWANCE = 20;

it(`answers exactly ${ALLOWANCE} of ${CONCURRENT} concurrent charged requests, and the admin API reads ${ALLOWANCE} used`, async () => {
  const edgeUrl = inject("EDGE_URL");
  const adminToken = inject("ADMIN_TOKEN");
  const tenant = await createTenant(edgeUrl, adminToken, {
    name: `concurrent charges ${Date.now()}`,
    allowance: ALLOWANCE,
    tier: "unlimited",
  });
  const authorization = basicAuth(credentialOf(tenant));
  const statuses = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const res = await fetch(new URL("/api/v2/hosts/search?q=*&per_page=1", edgeUrl), {
        headers: { authorization },
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  const counted = (status: number) => statuses.filter((s) => s === status).length;
  expect({ ok: counted(200), refused: counted(429) }).toEqual({
    ok: ALLOWANCE,
    refused: CONCURRENT - ALLOWANCE,
  });
  expect((await adminApi(edgeUrl, adminToken).tenants.get(tenant.id)).used).toBe(ALLOWANCE);
});
