/** One request to the upstream API, below its base URL. */
export interface UpstreamCall {
  readonly method: string;
  /** Path below the API base with its query string, e.g. `/v1/view/ipv4/1.2.3.4`. */
  readonly path: string;
  readonly body?: Uint8Array | undefined;
  readonly contentType?: string | undefined;
  /** Send with this upstream API id (jobs belong to the upstream account that started them). */
  readonly credentialId?: string | undefined;
  readonly signal: AbortSignal;
  /** A v1 search's page tokens, kept between pages (only a Platform-only upstream reads them). */
  readonly paging?: V1Paging | undefined;
  /** Counts the Platform calls this legacy call became that answered (a Platform-only upstream). */
  readonly tally?: PlatformTally | undefined;
}

/**
 * The Platform calls of one translated legacy call that succeeded: what the Platform charged
 * for it, and what a route whose cost depends on them settles its hold to.
 */
export interface PlatformTally {
  answered: number;
}

/**
 * Where a v1 search on a Platform-only upstream finds the Platform page tokens that start the
 * pages an earlier request of the same tenant and query reached, and keeps the ones it reaches.
 */
export interface V1Paging {
  /** The token that starts `page`, if one is kept; asked again within a request, the same answer. */
  tokenOf(page: number): Promise<string | null>;
  keep(page: number, token: string): void;
}

export interface UpstreamAnswer {
  readonly response: Response;
  /** The pool entry that answered: an upstream API id, or `platform#N` (an identifier, not a secret). */
  readonly credentialId: string;
}

/** The service the edge fronts: our origin through a service binding, or the public API. */
export interface Upstream {
  /** The API base the upstream's own URLs start with (its details_url / download_path links). */
  readonly baseUrl: string;
  call(call: UpstreamCall): Promise<UpstreamAnswer>;
  /** Whether `text` contains an upstream secret (or its Basic encoding): such an answer is never relayed. */
  revealsCredential(text: string): boolean;
  /**
   * Fetches a URL the upstream handed out (an export file). Credentials go only to the
   * upstream itself, never to another host (presigned storage URLs need none).
   */
  download(url: string, credentialId: string | undefined, signal: AbortSignal): Promise<Response>;
}

/** Sends a request over the network or a service binding; tests pass a fault-injecting one. */
export type Transport = (request: Request) => Promise<Response>;
