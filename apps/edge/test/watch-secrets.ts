import { afterAll, beforeAll } from "vitest";
import { suiteSecretWatch } from "./reliability/secret-watch";

// Every test file: console lines and every response seen by the support fetchers must be free
// of the upstream credentials (the secret and its Basic token).
beforeAll(() => {
  suiteSecretWatch.reset();
  suiteSecretWatch.startConsole();
});
afterAll(() => {
  try {
    suiteSecretWatch.assertClean();
  } finally {
    suiteSecretWatch.stopConsole();
    suiteSecretWatch.reset();
  }
});
