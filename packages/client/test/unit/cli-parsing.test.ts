import { describe, expect, it } from "vitest";
import { parseFlags, type OptionSpec } from "../../src/cli/argv";
import { csvCell, csvLine, flattenRecord, jsonReplacer } from "../../src/cli/csv";
import { UsageError } from "../../src/cli/exit-codes";
import { parseEnvFile, resolveSettings, splitList } from "../../src/cli/settings";

const options: Record<string, OptionSpec> = {
  limit: { type: "string", description: "" },
  fields: { type: "string", multiple: true, description: "" },
  csv: { type: "boolean", description: "" },
  help: { type: "boolean", short: "h", description: "" },
};

describe("parseFlags", () => {
  it("reads --name value, --name=value, booleans, short flags and repeated flags", () => {
    const { values, positionals } = parseFlags(
      ["ipv4", "--limit", "5", "--fields=ip", "--fields", "a,b", "--csv", "-h", "query text"],
      options,
      "search",
    );
    expect(values).toEqual({ limit: "5", fields: ["ip", "a,b"], csv: true, help: true });
    expect(positionals).toEqual(["ipv4", "query text"]);
  });

  it("treats - as a positional and everything after -- as positionals", () => {
    expect(parseFlags(["-", "--", "--csv", "-x"], options, "bulk").positionals).toEqual(["-", "--csv", "-x"]);
  });

  it("keeps the last value of a flag given twice, and takes a value that starts with -", () => {
    expect(parseFlags(["--limit", "1", "--limit", "-2"], options, "search").values.limit).toBe("-2");
  });

  it.each([
    [["--bogus"], "unknown option --bogus"],
    [["--bogus=1"], "unknown option --bogus"],
    [["-z"], "unknown option -z"],
    [["--limit"], "--limit needs a value"],
    [["--csv=yes"], "--csv takes no value"],
  ])("refuses %j with a UsageError: %s", (args, message) => {
    expect(() => parseFlags(args, options, "search")).toThrow(UsageError);
    expect(() => parseFlags(args, options, "search")).toThrow(message);
  });

  // The flags a command takes are a closed set: names every object inherits are unknown too.
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "refuses --%s as an unknown option",
    (name) => {
      for (const args of [[`--${name}`], [`--${name}=x`], [`--${name}`, "x"]]) {
        expect(() => parseFlags(args, options, "search")).toThrow(`unknown option --${name}`);
      }
    },
  );
});

describe("CSV", () => {
  it("quotes fields with commas, quotes and line breaks, and ends lines with CRLF", () => {
    expect(csvLine(["plain", "a,b", 'say "hi"', "two\nlines"])).toBe(
      'plain,"a,b","say ""hi""","two\nlines"\r\n',
    );
  });

  it("writes null as empty, dates as ISO 8601, scalar lists joined by ; and objects as JSON", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvCell(["443/https", "80/http"])).toBe("443/https;80/http");
    expect(csvCell([{ port: 22 }])).toBe('[{"port":22}]');
    expect(csvCell(12n)).toBe("12");
  });

  it("flattens nested objects to dot keys and keeps arrays whole", () => {
    expect(
      flattenRecord({
        ip: "1.1.1.1",
        location: { country: "US", coordinates: { latitude: 1 } },
        services: [{ port: 53 }],
      }),
    ).toEqual({
      ip: "1.1.1.1",
      "location.country": "US",
      "location.coordinates.latitude": 1,
      services: [{ port: 53 }],
    });
  });

  it("writes big integers into JSON as exact decimal strings", () => {
    expect(JSON.stringify({ n: 9007199254740993n }, jsonReplacer)).toBe('{"n":"9007199254740993"}');
  });
});

describe("settings", () => {
  it("reads KEY=value lines, skipping comments and stripping one pair of quotes", () => {
    const text =
      "# written by pnpm start\nEDGE_URL=http://127.0.0.1:8787\nDEMO_API_ID='tnt id'\nexport ADMIN_TOKEN=\"t=1\"\n\nnot a pair\n";
    expect(parseEnvFile(text)).toEqual({
      EDGE_URL: "http://127.0.0.1:8787",
      DEMO_API_ID: "tnt id",
      ADMIN_TOKEN: "t=1",
    });
  });

  it("prefers flags, then SCANGATE_* variables, then local.env, ignoring empty values", () => {
    const local = {
      EDGE_URL: "http://local",
      DEMO_API_ID: "local-id",
      DEMO_API_SECRET: "local-secret",
      ADMIN_TOKEN: "local-admin",
    };
    const env = { SCANGATE_URL: "", SCANGATE_API_ID: "env-id", SCANGATE_API_SECRET: "env-secret" };
    expect(resolveSettings({ secret: "flag-secret" }, env, local)).toEqual({
      url: "http://local",
      apiId: "env-id",
      apiSecret: "flag-secret",
      adminToken: "local-admin",
      api: "legacy",
      platformToken: undefined,
      organizationId: undefined,
    });
  });

  it("reads the API, the Platform token and the organization the same way", () => {
    const local = { DEMO_PLATFORM_TOKEN: "sgt_local", PLATFORM_ORGANIZATION_ID: "org-local" };
    const fromLocal = resolveSettings({}, { SCANGATE_API: "V3" }, local);
    expect(fromLocal).toMatchObject({ api: "v3", platformToken: "sgt_local", organizationId: "org-local" });
    const fromEnv = resolveSettings(
      { api: "v2" },
      { SCANGATE_API: "v3", SCANGATE_PLATFORM_TOKEN: "sgt_env", SCANGATE_ORGANIZATION_ID: "org-env" },
      local,
    );
    expect(fromEnv).toMatchObject({ api: "legacy", platformToken: "sgt_env", organizationId: "org-env" });
    expect(resolveSettings({ api: "platform", token: "t", org: "o" }, {}, local)).toMatchObject({
      api: "v3",
      platformToken: "t",
      organizationId: "o",
    });
    expect(resolveSettings({}, { SCANGATE_API: "" }, {}).api).toBe("legacy");
  });

  it.each([
    [{ api: "v4" }, {}, '--api must be v3 or legacy (v1, v2), got "v4"'],
    [{}, { SCANGATE_API: "toString" }, 'SCANGATE_API must be v3 or legacy (v1, v2), got "toString"'],
  ])("refuses an unknown API %j %j with a UsageError", (flags, env, message) => {
    expect(() => resolveSettings(flags, env, {})).toThrow(new UsageError(message));
  });

  it("splits fingerprint lists on whitespace and commas", () => {
    expect(splitList(" a,b\n c\t\n,d ")).toEqual(["a", "b", "c", "d"]);
  });
});
