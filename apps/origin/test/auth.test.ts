import { beforeAll } from "vitest";
import { describeAuthChecks } from "./support/auth-checks";
import { concreteRoutes } from "./support/routes";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

describeAuthChecks([
  // Every /api route the origin serves, from its definition (src/routes/index.ts).
  ...concreteRoutes(),
  // A second index of a route, and a path no route serves: refused before anything else.
  { method: "POST", path: "/api/v1/search/certificates", body: { query: "*" } },
  { method: "GET", path: "/api/v1/no-such-route" },
]);
