// A fault-injecting upstream, used only by the edge's reliability tests: a real worker the edge
// reaches over a service binding, in front of the real origin. POST /__fault with a mode sets
// how every later request is answered until the next POST:
//
//   pass        forward to the origin (ORIGIN binding) unchanged
//   500         a JSON 500 in the error shape of the path's API version
//   429         a JSON 429 with Retry-After: 30, likewise
//   slow        answer after `delay_ms` (longer than the edge's UPSTREAM_TIMEOUT_MS in tests)
//   html        a 502 HTML error page, as a load balancer sends
//   truncated   a 200 whose JSON body stops half way
//   drop        a 200 whose body stream fails after its first bytes (a dropped connection)
//   throw       the worker throws before answering (the binding's fetch rejects)
//   text        a 200 with a plain-text body and Content-Type: text/plain
//
// GET /__fault answers the number of requests seen since the last POST.

let mode = "pass";
let delayMs = 0;
let seen = 0;

const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export default {
  /** @param {Request} request @param {{ ORIGIN: Fetcher }} env */
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/__fault") {
      if (request.method === "POST") {
        const body = await request.json();
        mode = body.mode;
        delayMs = body.delay_ms ?? 0;
        seen = 0;
        return json(200, { mode });
      }
      return json(200, { mode, seen });
    }
    seen += 1;
    const v2 = url.pathname.includes("/v2/");
    switch (mode) {
      case "pass":
        return env.ORIGIN.fetch(request);
      case "500":
        return v2
          ? json(500, { code: 500, status: "Internal Server Error", error: "unknown error occurred" })
          : json(500, { error_code: 500, error: "unknown error occurred" });
      case "429":
        return v2
          ? json(
              429,
              { code: 429, status: "error", error_type: "rate_limit_exceeded", error: "rate limit exceeded" },
              { "retry-after": "30" },
            )
          : json(
              429,
              {
                error_code: 429,
                status: "error",
                error_type: "rate_limit_exceeded",
                error: "rate limit exceeded",
              },
              { "retry-after": "30" },
            );
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return env.ORIGIN.fetch(request);
      case "html":
        return new Response("<html><body><h1>502 Bad Gateway</h1></body></html>", {
          status: 502,
          headers: { "content-type": "text/html" },
        });
      case "truncated":
        return new Response('{"status": "ok", "metadata": {"count": 3, "que', {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      case "drop": {
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"status": "ok", "results": ['));
            controller.error(new Error("connection reset by peer"));
          },
        });
        return new Response(stream, { status: 200, headers: { "content-type": "application/json" } });
      }
      case "throw":
        throw new Error("upstream dropped the connection");
      case "text":
        return new Response("service temporarily unavailable", {
          status: 200,
          headers: { "content-type": "text/plain" },
        });
      default:
        return json(400, { error: `unknown fault mode ${mode}` });
    }
  },
};
