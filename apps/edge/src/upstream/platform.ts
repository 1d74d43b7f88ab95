import type { Clock } from "@scangate/core/http";
import type { PlatformCredential } from "../config";
import { RotatingPool } from "./credential-pool";
import type { Transport, UpstreamAnswer } from "./interface";
import { tryRequest } from "./pooled";
import { guardAnswer, readWithin, type Relayed } from "./relay";

// The Censys Platform API (/v3) upstream: a pool of personal access tokens, each with the
// organization it acts for. The official SDKs send the token as `Authorization: Bearer` and the
// organization as the `organization_id` query parameter or the `X-Organization-ID` header.

/** The Platform pool: credentials named by their place in PLATFORM_CREDENTIALS, never by token. */
export class PlatformPool extends RotatingPool<PlatformCredential> {
  constructor(credentials: readonly PlatformCredential[], clock: Clock) {
    // Each token (and so its bearer header) is a string no answer to a tenant may contain.
    super(
      credentials,
      (c) => `platform#${credentials.indexOf(c) + 1}`,
      (c) => [c.token],
      clock,
    );
  }
}

const ORGANIZATION_PARAM = "organization_id";

/** The organization a path names (`/v3/accounts/organizations/{id}...`): the caller's own, upstream it is the pool's. */
const ORGANIZATION_PATH = /^(\/+v3\/+accounts\/+organizations\/+)[^/?]*/;

/**
 * The request target (path and query, still encoded as sent) with the caller's organization
 * replaced by `organizationId`: the caller names its own organization on the Platform, which
 * means nothing upstream. That is the `organization_id` query parameters and the organization
 * an account path names (`/v3/accounts/organizations/{id}/credits`: the team's shared balance).
 * Other parameters keep their bytes and order; the parameter is added only where the caller
 * sent one (the header always carries it).
 */
export function withOrganization(target: string, organizationId: string): string {
  const queryAt = target.indexOf("?");
  const path = (queryAt < 0 ? target : target.slice(0, queryAt)).replace(
    ORGANIZATION_PATH,
    (_, prefix: string) => `${prefix}${encodeURIComponent(organizationId)}`,
  );
  if (queryAt < 0) return path;
  const parts = target.slice(queryAt + 1).split("&");
  const isOrganization = (part: string) => {
    const name = part.split("=", 1)[0] ?? "";
    try {
      return decodeURIComponent(name.replace(/\+/g, " ")) === ORGANIZATION_PARAM;
    } catch {
      return false;
    }
  };
  const kept = parts.filter((part) => !isOrganization(part));
  if (kept.length === parts.length) return `${path}${target.slice(queryAt)}`;
  kept.push(`${ORGANIZATION_PARAM}=${encodeURIComponent(organizationId)}`);
  return `${path}?${kept.join("&")}`;
}

/** One /v3 request on a caller's behalf: only these parts of it ever reach the upstream. */
export interface PlatformCall {
  readonly method: string;
  /** Path from `/v3` on, with its query string as sent, e.g. `/v3/global/asset/host/1.1.1.1?at_time=...`. */
  readonly target: string;
  readonly body?: Uint8Array | undefined;
  readonly contentType?: string | undefined;
  /** The caller's Accept: the SDKs ask for vendor media types (`application/vnd.censys.api.v3.host.v1+json`). */
  readonly accept?: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * The Platform at `baseUrl` (e.g. https://api.platform.censys.io) reached through `transport`.
 * The caller's Authorization, X-Organization-ID, cookies and other headers never leave the edge;
 * each try carries one pool credential, and one the upstream refuses (401, 403, 429) rests while
 * the next is tried, as the legacy pool does.
 */
export class PlatformUpstream {
  private readonly base: URL;

  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport,
    private readonly pool: PlatformPool,
  ) {
    this.base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  }

  call(call: PlatformCall): Promise<UpstreamAnswer> {
    return this.pool.firstAccepted(this.pool.candidates(), (credential) => {
      const target = withOrganization(call.target, credential.organizationId).replace(/^\/+/, "");
      const headers = {
        accept: call.accept ?? "application/json",
        authorization: `Bearer ${credential.token}`,
        "x-organization-id": credential.organizationId,
      };
      return this.transport(tryRequest(new URL(target, this.base), call, headers));
    });
  }

  /** Whether `text` contains a pool token: such an answer is never relayed. */
  revealsCredential(text: string): boolean {
    return this.pool.revealsCredential(text);
  }
}

/** A Platform answer read in full within the deadline: status, bytes and type as the upstream sent them. */
export type PlatformRelayed = Omit<Relayed, "text" | "json">;

export const PLATFORM_REFUSED = "the Platform refused the gateway's tokens; tell the endpoint's operator";

/** What a Platform problem document says went wrong (its `detail`, else its `title`), if it says. */
export function problemDetail(json: unknown): string | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const { detail, title } = json as { detail?: unknown; title?: unknown };
  return typeof detail === "string" ? detail : typeof title === "string" ? title : undefined;
}

/**
 * Sends `call` and reads the whole answer within `timeoutMs` (a 504 past it, a 502 when the
 * upstream cannot be reached). A 401 means the upstream refused every token of the pool: the
 * gateway's fault, not the caller's, so a 502 that tells the caller to tell the operator. An
 * answer that contains a pool token is withheld (a 502).
 */
export async function relayPlatform(
  upstream: PlatformUpstream,
  call: Omit<PlatformCall, "signal">,
  timeoutMs: number,
): Promise<PlatformRelayed> {
  const relayed = await readWithin(timeoutMs, (signal) => upstream.call({ ...call, signal }));
  guardAnswer(upstream, relayed.status, new TextDecoder().decode(relayed.body), PLATFORM_REFUSED);
  return relayed;
}
