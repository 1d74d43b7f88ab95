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

export interface ClientOptions {
  /** The service root: `https://host` or `https://host/api` (both mean the same). */
  baseUrl: string;
  /** API ID (HTTP Basic user name). Without id and secret, requests go unauthenticated. */
  apiId?: string;
  /** API secret (HTTP Basic password). */
  apiSecret?: string;
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
  options: Omit<ClientOptions, "apiId" | "apiSecret">,
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
