import { describe, expect, it } from "vitest";
import { authenticateAccount, parseAccounts } from "../src/services/accounts";
import { quotaPeriod } from "../src/services/quota";

const ACCOUNTS = JSON.stringify([
  { api_id: "one", api_secret: "s1", login: "one", email: "one@example.test", allowance: 10 },
  { api_id: "two", api_secret: "s2", login: "two", email: "two@example.test", allowance: 20 },
]);

describe("origin accounts", () => {
  it("parses the configured accounts", () => {
    expect(parseAccounts(ACCOUNTS).map((a) => a.api_id)).toEqual(["one", "two"]);
  });

  it.each([
    ["text that is not JSON", "[{"],
    [
      "an allowance of 0",
      JSON.stringify([{ api_id: "a", api_secret: "b", login: "a", email: "", allowance: 0 }]),
    ],
    [
      "a duplicate api_id",
      JSON.stringify(
        [0, 1].map(() => ({ api_id: "a", api_secret: "b", login: "a", email: "", allowance: 1 })),
      ),
    ],
    [
      "an empty secret",
      JSON.stringify([{ api_id: "a", api_secret: "", login: "a", email: "", allowance: 1 }]),
    ],
  ])("rejects a configuration with %s", (_what, text) => {
    expect(() => parseAccounts(text)).toThrow(/ORIGIN_ACCOUNTS/);
  });

  it("authenticates only an exact id and secret pair", async () => {
    const accounts = parseAccounts(ACCOUNTS);
    expect((await authenticateAccount(accounts, "two", "s2"))?.login).toBe("two");
    expect(await authenticateAccount(accounts, "two", "s1")).toBeNull();
    expect(await authenticateAccount(accounts, "three", "s2")).toBeNull();
  });
});

describe("quota periods", () => {
  it("are calendar months in UTC", () => {
    expect(quotaPeriod(new Date("2024-12-31T23:59:59Z")).resetsAt.toISOString()).toBe(
      "2025-01-01T00:00:00.000Z",
    );
    expect(quotaPeriod(new Date("2024-02-10T00:00:00Z")).start.toISOString()).toBe(
      "2024-02-01T00:00:00.000Z",
    );
  });
});
