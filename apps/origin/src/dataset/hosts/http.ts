import { sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { HTTP_HEADER_REDACTED } from "@scangate/core";
import type { Prng } from "../prng";
import { favicon } from "./fingerprints";
import { pickWebServer, software, type SoftwareEntry } from "./software";

/**
 * HTTP responses of the dataset's web services. Everything computable is computed from the
 * response: Content-Length, body_size, body_hash, html_title, html_tags and the banner.
 * Volatile headers (Date, Set-Cookie, ETag) appear redacted, as the public service shows them.
 */

export interface HttpExchange {
  decoded: Record<string, unknown>;
  banner: string;
  software: SoftwareEntry[];
  statusCode: number;
  title: string | null;
  server: string | null;
  bodySha256: string;
  /** The body, for the distinct-bodies table (the v1 document keeps it too). */
  body: string;
  /** The web application or device the page belongs to (labels, favicon, hardware). */
  app?: string;
}

interface Page {
  status: number;
  reason: string;
  title: string | null;
  body: string;
  app?: string;
  /** Headers this application adds. */
  headers?: Record<string, string>;
}

const page = (
  status: number,
  reason: string,
  title: string | null,
  inner: string,
  app?: string,
  headers?: Record<string, string>,
): Page => ({
  status,
  reason,
  title,
  body: `<!DOCTYPE html><html><head>${title !== null ? `<title>${title}</title>` : ""}<meta charset="utf-8"></head><body>${inner}</body></html>`,
  ...(app ? { app } : {}),
  ...(headers ? { headers } : {}),
});

/** A page given as it is (a threat's default answer), not wrapped in the dataset's template. */
export function rawPage(status: number, reason: string, title: string | null, body: string): Page {
  return { status, reason, title, body };
}

const DEFAULT_PAGES: Record<string, Page> = {
  nginx: page(
    200,
    "OK",
    "Welcome to nginx!",
    "<h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is successfully installed.</p>",
  ),
  Apache: page(200, "OK", "Apache2 Ubuntu Default Page: It works", "<h1>It works!</h1>"),
  "Microsoft-IIS": page(200, "OK", "IIS Windows Server", '<img src="iisstart.png" alt="IIS">'),
};

const DEVICE_PAGES: Page[] = [
  page(
    200,
    "OK",
    "RouterOS router configuration page",
    "<h1>RouterOS v7</h1><p>You have connected to a router.</p>",
    "MikroTik RouterOS",
  ),
  page(200, "OK", "Synology DiskStation", '<div id="sds-login"></div>', "Synology DiskStation"),
  page(200, "OK", "FortiGate", '<form action="/logincheck" method="post"></form>', "FortiGate"),
  page(401, "Unauthorized", "401 Unauthorized", "<h1>401 Unauthorized</h1>", undefined, {
    "WWW-Authenticate": 'Basic realm="Login Required"',
  }),
  page(
    200,
    "OK",
    "Login",
    '<form method="post"><input name="username"><input type="password" name="password"></form>',
  ),
  page(200, "OK", "NETGEAR Router", "<p>NETGEAR genie</p>", "NETGEAR Router"),
  page(200, "OK", "Hikvision Web Client", '<div id="login"></div>', "Hikvision Camera"),
];

const GENERIC_PAGES: Page[] = [
  page(403, "Forbidden", "403 Forbidden", "<center><h1>403 Forbidden</h1></center>"),
  page(404, "Not Found", "404 Not Found", "<center><h1>404 Not Found</h1></center>"),
  page(502, "Bad Gateway", "502 Bad Gateway", "<center><h1>502 Bad Gateway</h1></center>"),
  page(200, "OK", "Index of /", '<h1>Index of /</h1><pre><a href="../">../</a></pre>'),
  page(200, "OK", "Grafana", '<div class="grafana-app"></div>', "Grafana", { "X-Frame-Options": "deny" }),
  page(200, "OK", "Jenkins", '<div id="jenkins"></div>', "Jenkins", { "X-Jenkins": "2.426.3" }),
  page(200, "OK", null, ""),
];

function sitePage(domain: string): Page {
  const label = domain.split(".")[0] ?? domain;
  const name = label.charAt(0).toUpperCase() + label.slice(1);
  return page(
    200,
    "OK",
    `${name} | Home`,
    `<header><a href="https://${domain}/">${name}</a></header><main><h1>Welcome to ${name}</h1></main>`,
  );
}

function htmlTags(body: string): string[] {
  return [...body.matchAll(/<(title|meta)\b[^>]*>(?:[^<]*<\/title>)?/gi)].map((m) => m[0]);
}

export function httpExchange(
  rng: Prng,
  options: {
    host: string;
    port: number;
    tls: boolean;
    domain?: string;
    device: boolean;
    /** A planted threat's own answer: its page and Server header (`""` for none). */
    page?: Page;
    server?: string;
  },
): HttpExchange {
  const { server, version } = pickWebServer(rng);
  const serverHeader =
    options.server ?? (version && rng.chance(0.6) ? `${server.header}/${version}` : server.header);
  const redirect = !options.page && !options.tls && options.port === 80 && rng.chance(0.25);
  let chosen: Page;
  if (options.page) {
    chosen = options.page;
  } else if (redirect) {
    chosen = page(
      301,
      "Moved Permanently",
      "301 Moved Permanently",
      "<center><h1>301 Moved Permanently</h1></center>",
    );
  } else if (options.domain && rng.chance(0.8)) {
    chosen = sitePage(options.domain);
  } else if (options.device) {
    chosen = rng.pick(DEVICE_PAGES);
  } else {
    chosen =
      DEFAULT_PAGES[server.header] && rng.chance(0.5)
        ? (DEFAULT_PAGES[server.header] as Page)
        : rng.pick(GENERIC_PAGES);
  }
  const bodyBytes = new TextEncoder().encode(chosen.body);
  const scheme = options.tls ? "https" : "http";
  const defaultPort = options.tls ? 443 : 80;
  const authority = options.port === defaultPort ? options.host : `${options.host}:${options.port}`;
  const headers: Record<string, string[]> = {
    ...(serverHeader === "" ? {} : { Server: [serverHeader] }),
    Date: [HTTP_HEADER_REDACTED],
    "Content-Type": ["text/html; charset=utf-8"],
    "Content-Length": [String(bodyBytes.length)],
    Connection: ["keep-alive"],
  };
  if (redirect) headers.Location = [`https://${options.domain ?? options.host}/`];
  if (options.tls && rng.chance(0.4))
    headers["Strict-Transport-Security"] = ["max-age=31536000; includeSubDomains"];
  if (rng.chance(0.3)) headers["Set-Cookie"] = [HTTP_HEADER_REDACTED];
  if (rng.chance(0.2)) headers.ETag = [HTTP_HEADER_REDACTED];
  for (const [name, value] of Object.entries(chosen.headers ?? {})) headers[name] = [value];
  if (server.header === "Apache" && rng.chance(0.3))
    headers["X-Powered-By"] = [rng.pick(["PHP/7.4.33", "PHP/8.1.2"])];
  if (rng.chance(0.15))
    headers["Cache-Control"] = [rng.pick(["no-cache", "max-age=0", "no-store, no-cache"])];
  const statusLine = `HTTP/1.1 ${chosen.status} ${chosen.reason}`;
  const banner = [
    statusLine,
    ...Object.entries(headers).map(([name, values]) => `${name}: ${values.join(", ")}`),
  ].join("\r\n");
  const bodySha1 = bytesToHex(sha1(bodyBytes));
  const bodySha256 = bytesToHex(sha256(bodyBytes));
  const response: Record<string, unknown> = {
    protocol: "HTTP/1.1",
    status_code: chosen.status,
    status_reason: chosen.reason,
    headers,
    _encoding: { html_tags: "DISPLAY_UTF8", body: "DISPLAY_UTF8", headers: "DISPLAY_UTF8" },
    html_tags: htmlTags(chosen.body),
    body_size: bodyBytes.length,
    body: chosen.body,
    body_hash: `sha1:${bodySha1}`,
    body_hashes: [`sha1:${bodySha1}`, `sha256:${bodySha256}`],
  };
  if (chosen.title !== null) response.html_title = chosen.title;
  if (chosen.app) response.favicons = [favicon(chosen.app)];
  return {
    decoded: {
      request: {
        method: "GET",
        uri: `${scheme}://${authority}/`,
        headers: {
          "User-Agent": ["Mozilla/5.0 (compatible; ScangateInspect/1.1)"],
          Accept: ["*/*"],
          "Accept-Encoding": ["gzip"],
        },
        _encoding: { headers: "DISPLAY_UTF8" },
      },
      response,
      supports_http2: options.tls && rng.chance(0.5),
    },
    banner,
    software: options.server === undefined ? [software("a", server.vendor, server.product, version)] : [],
    statusCode: chosen.status,
    title: chosen.title,
    server: serverHeader === "" ? null : serverHeader,
    bodySha256,
    body: chosen.body,
    ...(chosen.app ? { app: chosen.app } : {}),
  };
}
