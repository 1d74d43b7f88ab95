import { env } from "cloudflare:workers";
import type { Transport } from "../../src/upstream/interface";

export type Script = (request: Request) => Response | Promise<Response>;

/**
 * A fault-injecting network in front of the real origin: every request is recorded; a scripted
 * answer (500, 429, HTML, truncated JSON, a hang) replaces the origin's when one is set.
 */
export class FakeUpstream {
  readonly requests: Request[] = [];
  private script: Script | null = null;

  readonly transport: Transport = async (request) => {
    this.requests.push(request.clone());
    if (this.script) return this.script(request);
    const origin = env.ORIGIN;
    if (!origin) throw new Error("no ORIGIN binding in tests");
    return origin.fetch(request);
  };

  answer(script: Script | null): void {
    this.script = script;
  }

  /** Calls to a path (below the API base), e.g. "/v1/bulk/certificates". */
  callsTo(path: string): Request[] {
    return this.requests.filter((r) => new URL(r.url).pathname.endsWith(path));
  }
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** Waits for the request's abort signal (the edge's timeout), as a stalled upstream would. */
export const hang: Script = (request) =>
  new Promise<Response>((_, reject) => {
    request.signal.addEventListener("abort", () => reject(new Error("aborted")));
  });
