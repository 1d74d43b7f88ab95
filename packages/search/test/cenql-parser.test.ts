import { describe, expect, it } from "vitest";
import { parseQuery, type QueryNode } from "../src/index";
import { showQuery } from "./show-query";

function parsed(input: string): QueryNode {
  const result = parseQuery(input, "cenql");
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to parse: ${result.error.message}`);
  return result.value;
}

const shape = (input: string): string => showQuery(parsed(input));

describe("parseQuery: CenQL constructs", () => {
  const CASES: [string, string][] = [
    ["", "*"],
    ["*", "*"],
    // `:` (case-insensitive match) and `=` (exact), with and without spaces
    ["host.services.port: 22", "host.services.port:22"],
    ["host.services.port:22", "host.services.port:22"],
    ['host.location.city="Ann Arbor"', 'host.location.city="Ann Arbor"'],
    ["host.services.protocol = SSH", "host.services.protocol=SSH"],
    [
      'cert.parsed.subject.organization: "Let\'s Encrypt"',
      'cert.parsed.subject.organization:"Let\'s Encrypt"',
    ],
    ["host.location.country: `United States`", 'host.location.country:"United States"'],
    // comparisons, ranges (`to` in any case, `[` inclusive, `{` exclusive), relative time
    ["host.services.port > 1024", "host.services.port:{1024 TO *]"],
    ["host.services.port >= 1024", "host.services.port:[1024 TO *]"],
    ["host.services.port < 1024", "host.services.port:[* TO 1024}"],
    ["host.services.port <= 1024", "host.services.port:[* TO 1024]"],
    ["host.services.port: [1 to 1024]", "host.services.port:[1 TO 1024]"],
    ["host.services.port: [1 TO 1024}", "host.services.port:[1 TO 1024}"],
    ["host.services.port: {1 to 1024}", "host.services.port:{1 TO 1024}"],
    ['host.services.cert.added_at > "now-24h"', 'host.services.cert.added_at:{"now-24h" TO *]'],
    [
      "cert.parsed.validity_period.not_after < `now+30d`",
      'cert.parsed.validity_period.not_after:[* TO "now+30d"}',
    ],
    ['cert.added_at: ["now-7d" to "now"]', 'cert.added_at:["now-7d" TO "now"]'],
    ["cert.added_at: [2024-01-01 to *]", "cert.added_at:[2024-01-01 TO *]"],
    // an escaped `\to` is a bound, not the range's TO
    ["host.x: [\\to to z]", "host.x:[to TO z]"],
    // sets, wildcards, exists, regexes
    ["host.services.port: {21, 22, 23, 24, 25}", "host.services.port:{21, 22, 23, 24, 25}"],
    ["web.hostname: *.example.com", "web.hostname:wild(*.example.com)"],
    ["host.services.software.product: ngin?", "host.services.software.product:wild(ngin?)"],
    ["host.services.software.product = Ngin*", "host.services.software.product=wild(Ngin*)"],
    ["host.services.tls: *", "host.services.tls:exists"],
    ['host.services.banner =~ "SSH-2\\\\.0.*"', "host.services.banner:/SSH-2\\.0.*/"],
    ['host.services.banner=~"^SSH"', "host.services.banner:/^SSH/"],
    ["host.services.banner =~ `[a-z]+$`", "host.services.banner:/[a-z]+$/"],
    // a `/` is an ordinary character (paths), not a regex delimiter
    ["web.endpoints.path: /wp-admin", "web.endpoints.path:/wp-admin"],
    ["/login", "text(/login)"],
    // booleans in any case, parentheses, adjacent terms AND, bare terms and phrases
    ["a and b", "(and text(a) text(b))"],
    ["a AND b OR c", "(or (and text(a) text(b)) text(c))"],
    ["a Or not b", "(or text(a) (not text(b)))"],
    ["NOT (a or b)", "(not (or text(a) text(b)))"],
    ["a b", "(and text(a) text(b))"],
    ['"example.com"', 'text("example.com")'],
    ["example.com", "text(example.com)"],
    // nested scopes and groups: inner names stay relative
    [
      "host.services: (protocol=SSH and not port: 22)",
      "(group host.services (and protocol=SSH (not port:22)))",
    ],
    [
      "host.services: (software: (vendor: OpenBSD and product: OpenSSH))",
      "(group host.services (group software (and vendor:OpenBSD product:OpenSSH)))",
    ],
    ["host.services.port: (22 or 2222)", "(group host.services.port (or text(22) text(2222)))"],
    ["host: (location.country: DE)", "(group host location.country:DE)"],
  ];

  it.each(CASES)("%j parses to %s", (input, expected) => {
    expect(shape(input)).toBe(expected);
  });

  it("keeps positions of fields and values for error messages", () => {
    expect(parsed('host.ip: 1.2.3.4 and host.services.banner =~ "x"')).toMatchObject({
      type: "and",
      children: [
        { type: "field", field: "host.ip", position: 0, value: { kind: "term", position: 9 } },
        {
          type: "field",
          field: "host.services.banner",
          position: 21,
          value: { kind: "regex", source: "x", position: 45, raw: '"x"' },
        },
      ],
    });
  });

  it("reads `=~` only in CenQL: the legacy dialects point at it", () => {
    const v2 = parseQuery("services.banner =~ x", "v2");
    expect(v2.ok).toBe(false);
    if (!v2.ok) expect(v2.error).toMatchObject({ position: 16, token: "=~" });
  });

  it("reads `/x/` as a regex in v2 and as a word in CenQL", () => {
    expect(showQuery((parseQuery("path: /a.*/", "v2") as { value: QueryNode }).value)).toBe("path:/a.*/");
    expect(shape("path: /a.b/")).toBe("path:/a.b/");
    expect(parsed("path: /a.b/")).toMatchObject({ value: { kind: "term", text: "/a.b/" } });
  });
});

describe("parseQuery: CenQL errors say where they failed", () => {
  const CASES: [string, number, string, RegExp][] = [
    [
      "host.services.port != 22",
      19,
      "!=",
      /"!=" is not CenQL, at position 19; write not host\.services\.port = value/,
    ],
    ["same_service(port: 22)", 0, "same_service", /legacy syntax.*host\.services: \(\.\.\.\)/],
    ["host.services.banner =~ SSH", 24, "SSH", /quoted string, like host\.services\.banner =~ "ab\.\*"/],
    ['host.services.banner =~ ""', 24, '""', /empty regular expression at position 24/],
    ["host.services.banner =~", 23, "", /expected a value for "host\.services\.banner" at position 23/],
    ['host.services.banner =~ "SSH', 24, '"SSH', /unterminated quoted phrase starting at position 24/],
    ["host.services: (port: 22", 15, "(", /unbalanced "\(" at position 15/],
    ["host.services.port: 22 and", 23, "and", /expected a term after "and" at position 23/],
    ["host.services.port: [1 to", 20, "[", /unterminated range starting at position 20/],
    ["host.services.port: [1 22]", 23, "22", /expected "TO" in the range at position 23/],
    ["host.services.port:", 19, "", /expected a value for "host\.services\.port" at position 19/],
    ["(a or b))", 8, ")", /unexpected "\)" at position 8/],
    ["host.location.city: par~1", 23, "~", /unsupported operator "~" at position 23/],
  ];

  it.each(CASES)("%j fails at %i on %j", (input, position, token, message) => {
    const result = parseQuery(input, "cenql");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ position, token });
    expect(result.error.message).toMatch(message);
  });
});
