import { beforeAll } from "vitest";
import { describeAuthChecks } from "./support/auth-checks";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

// Every /api route the origin serves (the async job routes add theirs to this list).
describeAuthChecks([
  { method: "POST", path: "/api/v1/search/ipv4", body: { query: "*" } },
  { method: "POST", path: "/api/v1/search/certificates", body: { query: "*" } },
  { method: "GET", path: "/api/v1/view/ipv4/1.1.1.1" },
  { method: "POST", path: "/api/v1/report/ipv4", body: { query: "", field: "location.country" } },
  { method: "POST", path: "/api/v1/bulk/certificates", body: { fingerprints: ["a".repeat(64)] } },
  { method: "GET", path: "/api/v1/account" },
  { method: "GET", path: "/api/v1/no-such-route" },
  { method: "GET", path: "/api/v2/hosts/search?q=" },
  { method: "GET", path: "/api/v2/hosts/aggregate?field=services.port" },
  { method: "GET", path: "/api/v2/hosts/1.1.1.1" },
]);
