import { accountSchema, type Account } from "@scangate/core";
import { abortableSleep } from "./abortable-sleep";
import { basicAuthorization } from "./basic-auth";
import type { PollDeps } from "./job-polling";
import { resolveRetryOptions, type RetryOptionsInput } from "./retry-policy";
import { Transport, type FetchLike, type RetryEvent } from "./transport";
import { v1Documents } from "./v1/documents";
import { v1ExportJobs } from "./v1/export-jobs";
import { v1QueryJobs } from "./v1/query-jobs";
import { v1RawData } from "./v1/raw-data";
import { v1Search } from "./v1/search";
import { v2Hosts } from "./v2/hosts";
import { v3Platform } from "./v3/platform";

export interface ClientOptions {
  /** The service root: `https://host` or `https://host/api` (both mean the same). */
  baseUrl: string;
  /** API ID (HTTP Basic user name). Without id and secret, requests go unauthenticated. */
  apiId?: string;
  /** API secret (HTTP Basic password). */
  apiSecret?: string;
  /**
   * A Platform API (v3) bearer token: a scangate tenant's Platform token, or a Censys personal
   * access token. Used by `client.platform` only; v1/v2 calls use the API ID and secret.
   */
  platformToken?: string;
  /**
   * The Platform organization the calls act for: sent as `organization_id` on global data
   * calls, and named in the path of account calls. Optional through scangate's edge, which
   * puts its own upstream organization in the forwarded query.
   */
  organizationId?: string;
  /** A fetch to send requests with: a Worker's `SELF.fetch`, a service binding, a test double. */
  fetch?: FetchLike;
  /** Retry bounds (see RetryOptions), or `false` to never retry. */
  retry?: RetryOptionsInput;
  /** Per-attempt timeout in ms; none by default. A timed-out attempt counts as a network error. */
  timeoutMs?: number;
  /** Check every 2xx body against the `@scangate/core` schema (default true). */
  validate?: boolean;
  /** Called before each retry, e.g. to log "rate limited, retrying in 3 s". */
  onRetry?: (event: RetryEvent) => void;
  /** How to wait between retries and polls; tests pass a fake. Must honour the signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Builds the shared transport from client options (the admin client reuses it). */
export function createTransport(
  options: Omit<ClientOptions, "apiId" | "apiSecret" | "platformToken" | "organizationId">,
  authorization: string | undefined,
) {
  return new Transport({
    baseUrl: options.baseUrl,
    authorization,
    // A bare `fetch` reference loses its receiver in Workers ("Illegal invocation").
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: resolveRetryOptions(options.retry),
    timeoutMs: options.timeoutMs,
    validate: options.validate ?? true,
    sleep: options.sleep ?? abortableSleep,
    random: Math.random,
    onRetry: options.onRetry,
  });
}

/**
 * A client for scangate's edge, its origin, or any Censys-compatible service: they share the
 * wire format. Runs wherever `fetch` does (Node 20, browsers, Workers).
 */
export function createClient(options: ClientOptions) {
  if ((options.apiId === undefined) !== (options.apiSecret === undefined)) {
    throw new TypeError("pass both apiId and apiSecret, or neither");
  }
  const authorization =
    options.apiId === undefined || options.apiSecret === undefined
      ? undefined
      : basicAuthorization(options.apiId, options.apiSecret);
  const transport = createTransport(options, authorization);
  const poll: PollDeps = { sleep: options.sleep ?? abortableSleep, now: () => Date.now() };
  const searchApi = v1Search(transport);
  const documents = v1Documents(transport);

  return {
    ...searchApi,
    ...documents,
    /** Login and quota of the calling credential (`GET /api/v1/account`). */
    account(opts: { signal?: AbortSignal } = {}): Promise<Account> {
      return transport.call({
        method: "GET",
        path: "/api/v1/account",
        schema: accountSchema,
        idempotent: true,
        signal: opts.signal,
      });
    },
    query: v1QueryJobs(transport, poll),
    export: v1ExportJobs(transport, poll),
    data: v1RawData(transport),
    hosts: v2Hosts(transport),
    /** The Platform API (v3), with the bearer `platformToken` (see `createPlatformClient`). */
    platform: platformApi(options),
    /**
     * Fetches an export or raw-data file. Credentials are sent only when the URL is on the
     * service's own origin. Errors map to the same typed classes as API calls.
     */
    download(url: string, opts: { signal?: AbortSignal } = {}): Promise<Response> {
      return transport.download(url, opts.signal);
    },
  };
}

export type ScangateClient = ReturnType<typeof createClient>;

function platformApi(options: ClientOptions) {
  if (options.platformToken !== undefined && /[\r\n]/.test(options.platformToken))
    throw new TypeError("platformToken must be one line");
  const authorization = options.platformToken ? `Bearer ${options.platformToken}` : undefined;
  return v3Platform(createTransport(options, authorization), options.organizationId || undefined);
}

export interface PlatformClientOptions
  extends Omit<ClientOptions, "apiId" | "apiSecret" | "platformToken" | "organizationId"> {
  /** The bearer token: a scangate tenant's Platform token, or a Censys personal access token. */
  token: string;
  /** Sent as `organization_id`; needed for account calls (see ClientOptions.organizationId). */
  organizationId?: string;
}

/**
 * A client of the Censys Platform API (v3) alone: scangate's edge (`/v3` with a tenant's
 * Platform token), its origin, or the Platform itself (`https://api.platform.censys.io`).
 */
export function createPlatformClient(options: PlatformClientOptions) {
  const { token, ...rest } = options;
  return platformApi({ ...rest, platformToken: token });
}

export type ScangatePlatformClient = ReturnType<typeof createPlatformClient>;
