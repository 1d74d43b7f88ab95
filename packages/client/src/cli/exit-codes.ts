import {
  AuthenticationError,
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ScangateError,
} from "../errors";

/** Exit codes of `scangate`; the README lists them. */
export const EXIT = {
  ok: 0,
  /** A bug or a local failure (writing a file). */
  unexpected: 1,
  /** Wrong command line: unknown command or flag, missing argument, no service URL. */
  usage: 2,
  /** The service refused or failed the call (4xx/5xx not listed below, bad answer, failed job). */
  api: 3,
  /** 401/403: credentials missing, wrong or disabled. */
  auth: 4,
  /** 404: no such document, job, series, tenant. */
  notFound: 5,
  /** 429: rate limited (after retries) or quota spent. */
  rateLimited: 6,
  /** The service could not be reached (or timed out). */
  network: 7,
  /** Interrupted (Ctrl-C), as shells report SIGINT. */
  interrupted: 130,
} as const;

/** A mistake on the command line; printed with a pointer to `--help`. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthenticationError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof RateLimitError || error instanceof QuotaExceededError) return EXIT.rateLimited;
  if (error instanceof NetworkError) return EXIT.network;
  if (error instanceof ScangateError) return EXIT.api;
  return EXIT.unexpected;
}
