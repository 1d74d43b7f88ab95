import { describe, expect, it } from "vitest";
import { requestTarget } from "../../src/http";

describe("requestTarget: the path and query cut from a request URL", () => {
  const urls = [
    "http://edge.local/api/v1/view/certificates/abc",
    "http://edge.local/api/v1/view/certificates/abc?",
    "http://edge.local/api/v1/view/certificates/abc?x=1",
    "http://edge.local/api/v1/view/certificates/abc?x=1&y=%20?z",
    "https://user@edge.local:8787/api/v2/hosts/1.1.1.1?at_time=2026-01-01T00:00:00Z",
    "http://[::1]:8787/api/v2/hosts/::1?at_time=x",
    "http://127.0.0.1:8787/",
    "http://127.0.0.1:8787/?",
    "http://edge.local//api//v1/view/%2Fx/?q=%3F",
    "http://edge.local/api/v1/search/ipv4?q=//a",
  ];
  for (const raw of urls) {
    it(`gives what URL gives for ${raw}`, () => {
      // The runtime hands a worker its request URL serialised by the URL parser.
      const serialised = new URL(raw).href;
      const url = new URL(serialised);
      expect(requestTarget(serialised)).toEqual({ pathname: url.pathname, search: url.search });
    });
  }
});
