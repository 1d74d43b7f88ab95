import { describe, expect, it } from "vitest";
import { parseQuery, type Dialect, type QueryNode } from "../src/index";
import { showQuery } from "./show-query";

function parsed(input: string, dialect: Dialect): QueryNode {
  const result = parseQuery(input, dialect);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to parse: ${result.error.message}`);
  return result.value;
}

const shape = (input: string, dialect: Dialect): string => showQuery(parsed(input, dialect));

// Constructs both dialects read the same way.
const SHARED: [string, string][] = [
  ["", "*"],
  ["   ", "*"],
  ["*", "*"],
  ["*:*", "*"],
  ["port: 22", "port:22"],
  ["port:22", "port:22"],
  ["port : 22", "port:22"],
  ["services.port: 22", "services.port:22"],
  ["443.https.tls.version: TLSv1.2", "443.https.tls.version:TLSv1.2"],
  ["location.country_code: DE", "location.country_code:DE"],
  ['name: "hello world"', 'name:"hello world"'],
  ['name: "say \\"hi\\""', 'name:"say \\"hi\\""'],
  ['name: ""', 'name:""'],
  ["name: ng*x", "name:wild(ng*x)"],
  ["name: ng?x", "name:wild(ng?x)"],
  ["name: ng\\*x*", "name:wild(ng\\*x*)"],
  ["name: *", "name:exists"],
  ["(name: *)", "name:exists"],
  ["_exists_: name", "name:exists"],
  ["name: /ng.*x/", "name:/ng.*x/"],
  ["path: /a\\/b/", "path:/a/b/"],
  ["port: [1 TO 5]", "port:[1 TO 5]"],
  ["port: {1 TO 5}", "port:{1 TO 5}"],
  ["port: [1 TO 5}", "port:[1 TO 5}"],
  ["port: {1 TO 5]", "port:{1 TO 5]"],
  ["port: [* TO 5]", "port:[* TO 5]"],
  ["port: [1 TO *]", "port:[1 TO *]"],
  ["port: [1 to 5]", "port:[1 TO 5]"],
  ['name: ["a" TO "m"]', 'name:["a" TO "m"]'],
  ["t: [now-1d TO now]", "t:[now-1d TO now]"],
  ["t: [now-7d/d TO now/d]", "t:[now-7d/d TO now/d]"],
  ["t: [2020-01-01 TO 2020-12-31]", "t:[2020-01-01 TO 2020-12-31]"],
  ["t: 2020-01-01T10:00:00Z", "t:2020-01-01T10:00:00Z"],
  ["port > 5", "port:{5 TO *]"],
  ["port >= 5", "port:[5 TO *]"],
  ["port < 5", "port:[* TO 5}"],
  ["port <= 5", "port:[* TO 5]"],
  ["port:>5", "port:{5 TO *]"],
  ["t >= 2020-01-01", "t:[2020-01-01 TO *]"],
  ["t < now-2h", "t:[* TO now-2h}"],
  ['t > "2020-01-01 10:00"', 't:{"2020-01-01 10:00" TO *]'],
  ["ip: 1.2.3.0/24", "ip:1.2.3.0/24"],
  ["ip: [1.2.3.4 TO 1.2.3.9]", "ip:[1.2.3.4 TO 1.2.3.9]"],
  ["ip: 2001:db8::1", "ip:2001:db8::1"],
  ["protocols: 443/https", "protocols:443/https"],
  ["foo", "text(foo)"],
  ['"foo bar"', 'text("foo bar")'],
  ["ngin*", "text(wild(ngin*))"],
  ["/abc/", "text(/abc/)"],
  ["(foo)", "text(foo)"],
  ["((foo))", "text(foo)"],
  ["android", "text(android)"],
  ["notes: x", "notes:x"],
  ["a AND b", "(and text(a) text(b))"],
  ["a and b", "(and text(a) text(b))"],
  ["a And b", "(and text(a) text(b))"],
  ["a && b", "(and text(a) text(b))"],
  ["a&&b", "(and text(a) text(b))"],
  ["a OR b", "(or text(a) text(b))"],
  ["a or b", "(or text(a) text(b))"],
  ["a || b", "(or text(a) text(b))"],
  ["NOT a", "(not text(a))"],
  ["not a", "(not text(a))"],
  ["Not a", "(not text(a))"],
  ["!a", "(not text(a))"],
  ["! a", "(not text(a))"],
  ["not(a)", "(not text(a))"],
  ["-a", "(not text(a))"],
  ["+a", "text(a)"],
  ["a or b and c", "(or text(a) (and text(b) text(c)))"],
  ["a and b or c", "(or (and text(a) text(b)) text(c))"],
  ["not a and b", "(and (not text(a)) text(b))"],
  ["not a or b", "(or (not text(a)) text(b))"],
  ["a and (b or c)", "(and text(a) (or text(b) text(c)))"],
  ["not (a or b)", "(not (or text(a) text(b)))"],
  ["not not a", "(not (not text(a)))"],
  ["a or b or c", "(or text(a) text(b) text(c))"],
  ["a and b and c", "(and text(a) text(b) text(c))"],
  ["port:22 OR port:80", "(or port:22 port:80)"],
  ["a AND NOT b", "(and text(a) (not text(b)))"],
  ["a NOT b", "(and text(a) (not text(b)))"],
  ["services: (port: 22 and not service_name: SSH)", "(group services (and port:22 (not service_name:SSH)))"],
  ["same_service(port: 22 and service_name: SSH)", "(group services (and port:22 service_name:SSH))"],
  ["SAME_SERVICE (port: 22)", "(group services port:22)"],
  [
    "same_service(services.port: 22 and services.service_name: SSH)",
    "(group services (and services.port:22 services.service_name:SSH))",
  ],
  ["services: (tls: (version_selected: x))", "(group services (group tls version_selected:x))"],
  ["tags: (a or b)", "(group tags (or text(a) text(b)))"],
  [
    "location.country: US and (services.port: 22 or services.port: 80)",
    "(and location.country:US (or services.port:22 services.port:80))",
  ],
  ["name: a\\(b\\)", 'name:"a(b)"'],
  ["name: foo\\:bar", "name:foo:bar"],
  ["name: a\\-b", "name:a-b"],
  ["name: 100%_x", "name:100%_x"],
];

describe("parseQuery: constructs shared by both dialects", () => {
  for (const dialect of ["v1", "v2"] as const) {
    it.each(SHARED)(`${dialect}: %j parses to %s`, (input, expected) => {
      expect(shape(input, dialect)).toBe(expected);
    });
  }

  it("does not take operator words that are part of a longer word as operators", () => {
    expect(shape("orange nothing", "v2")).toBe("(and text(orange) text(nothing))");
    expect(shape("andy or notary", "v2")).toBe("(or text(andy) text(notary))");
  });

  it("resolves escapes in unquoted words, including escaped spaces and backslashes", () => {
    const node = parsed("path: C\\:\\\\Windows\\ dir", "v1");
    expect(node).toMatchObject({
      type: "field",
      field: "path",
      value: { kind: "term", text: "C:\\Windows dir" },
    });
  });

  it("records the position and source text of fields and values", () => {
    expect(parsed("a: 1 and services.port: [1 TO 5]", "v2")).toMatchObject({
      type: "and",
      children: [
        { type: "field", field: "a", position: 0, value: { kind: "term", position: 3, raw: "1" } },
        {
          type: "field",
          field: "services.port",
          position: 9,
          value: { kind: "range", position: 24, raw: "[1 TO 5]" },
        },
      ],
    });
  });
});

describe("parseQuery: adjacent terms", () => {
  const CASES: [string, string, string][] = [
    // input, v1 (adjacent = OR), v2 (adjacent = AND)
    ["a b", "(or text(a) text(b))", "(and text(a) text(b))"],
    ["a b c", "(or text(a) text(b) text(c))", "(and text(a) text(b) text(c))"],
    ["a b or c", "(or text(a) text(b) text(c))", "(or (and text(a) text(b)) text(c))"],
    ["a or b c", "(or text(a) text(b) text(c))", "(or text(a) (and text(b) text(c)))"],
    // Lucene: AND makes both neighbours required, and the plain term beside them optional.
    ["a b and c", "(and text(b) text(c))", "(and text(a) text(b) text(c))"],
    ["port: 22 port: 80", "(or port:22 port:80)", "(and port:22 port:80)"],
    ["(a b) c", "(or text(a) text(b) text(c))", "(and text(a) text(b) text(c))"],
    ["a -b", "(and text(a) (not text(b)))", "(and text(a) (not text(b)))"],
    ["a b -c", "(and (or text(a) text(b)) (not text(c)))", "(and text(a) text(b) (not text(c)))"],
    ["+a b", "text(a)", "(and text(a) text(b))"],
    ["+a +b -c d", "(and text(a) text(b) (not text(c)))", "(and text(a) text(b) (not text(c)) text(d))"],
    ["-a -b", "(and (not text(a)) (not text(b)))", "(and (not text(a)) (not text(b)))"],
    ["a NOT b c", "(and (or text(a) text(c)) (not text(b)))", "(and text(a) (not text(b)) text(c))"],
    ["a !b", "(and text(a) (not text(b)))", "(and text(a) (not text(b)))"],
    ["-tags: web", "(not tags:web)", "(not tags:web)"],
  ];

  it.each(CASES)("%j is %s in v1 and %s in v2", (input, v1, v2) => {
    expect(shape(input, "v1")).toBe(v1);
    expect(shape(input, "v2")).toBe(v2);
  });
});

describe("parseQuery: v2-only syntax", () => {
  const CASES: [string, string][] = [
    ["name = x", "name=x"],
    ["name=x", "name=x"],
    ['name = "X Y"', 'name="X Y"'],
    ["name = Ng*", "name=wild(Ng*)"],
    ["name: `a b`", 'name:"a b"'],
    ["name: `a\\`b`", 'name:"a`b"'],
    ["`exact phrase`", 'text("exact phrase")'],
    ["port: {22, 80, 443}", "port:{22, 80, 443}"],
    ["port: { 22 , 80 }", "port:{22, 80}"],
    ["port: {22}", "port:{22}"],
    ['name: {ng*, "a b"}', 'name:{wild(ng*), "a b"}'],
    ["name = {a, b}", "name={a, b}"],
    ["port: {1 TO 5}", "port:{1 TO 5}"],
  ];

  it.each(CASES)("%j parses to %s", (input, expected) => {
    expect(shape(input, "v2")).toBe(expected);
  });
});
