import type { CredentialPool } from "./credential-pool";
import type { Transport, Upstream, UpstreamAnswer, UpstreamCall } from "./interface";

/**
 * The upstream at `baseUrl` (e.g. https://search.censys.io/api) reached through `transport`,
 * authenticated with the pool's credentials. Only the request line, the body and its type are
 * forwarded: the caller's own Authorization, cookies and client headers never leave the edge.
 */
export class PooledUpstream implements Upstream {
  private readonly base: URL;

  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport,
    private readonly pool: CredentialPool,
    /** Whether every URL the upstream hands out is reached through `transport` (a service binding). */
    private readonly ownsEveryUrl: boolean,
  ) {
    this.base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  }

  async call(call: UpstreamCall): Promise<UpstreamAnswer> {
    const url = new URL(call.path.replace(/^\/+/, ""), this.base);
    const pinned = call.credentialId ? this.pool.find(call.credentialId) : undefined;
    return this.pool.firstAccepted(pinned ? [pinned] : this.pool.candidates(), (credential) => {
      const authorization = this.pool.authorization(credential);
      return this.transport(tryRequest(url, call, { accept: "application/json", authorization }));
    });
  }

  revealsCredential(text: string): boolean {
    return this.pool.revealsCredential(text);
  }

  async download(url: string, credentialId: string | undefined, signal: AbortSignal): Promise<Response> {
    const target = new URL(url);
    if (!this.ownsEveryUrl && target.origin !== this.base.origin) {
      return fetch(target, { signal });
    }
    const credential = (credentialId && this.pool.find(credentialId)) || this.pool.candidates()[0];
    const headers = new Headers(credential ? { authorization: this.pool.authorization(credential) } : {});
    // Through a service binding the host is irrelevant: the path names the file.
    const request = this.ownsEveryUrl ? new URL(target.pathname + target.search, this.base) : target;
    return this.transport(new Request(request, { headers, signal }));
  }
}

/** One try of a call: its method, body and type sent to `url` with the try's `headers` (its credential). */
export function tryRequest(
  url: URL,
  call: Pick<UpstreamCall, "method" | "body" | "contentType" | "signal">,
  headers: Record<string, string>,
): Request {
  const all = call.contentType ? { ...headers, "content-type": call.contentType } : headers;
  return new Request(url, {
    method: call.method,
    headers: all,
    body: call.body ?? null,
    signal: call.signal,
  });
}
