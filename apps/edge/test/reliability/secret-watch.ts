import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect, type MockInstance, vi } from "vitest";
import type { Fetch } from "../support/requests";

export interface Credential {
  readonly api_id: string;
  readonly api_secret: string;
}

/** What a leaked upstream credential looks like: the secret, or its `Basic` token. */
function markersOf(credentials: readonly Credential[]): string[] {
  return credentials.flatMap((c) => [c.api_secret, btoa(`${c.api_id}:${c.api_secret}`)]);
}

/** The edge's configured upstream pool (vitest.config.ts), the credentials every test shares. */
export function configuredUpstreamCredentials(): Credential[] {
  return JSON.parse(env.UPSTREAM_CREDENTIALS ?? "[]") as Credential[];
}

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug"] as const;

function printable(value: unknown): string {
  if (value instanceof Error)
    return `${value.name}: ${value.message}\n${value.stack ?? ""} ${printable(value.cause)}`;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Watches a test file for upstream credentials leaking: every response that went through a
 * fetch wrapped by `watch` (status line, headers, body) and every console line the edge wrote
 * in this isolate. The check runs once, after the file's last test.
 */
export class SecretWatch {
  private readonly markers: string[];
  private readonly seen: Array<{ what: string; text: string }> = [];
  private spies: MockInstance[] = [];
  responses = 0;

  constructor(credentials: readonly Credential[]) {
    this.markers = markersOf(credentials);
  }

  /** Also watch for these (a test's own fault-injection pool). */
  addCredentials(credentials: readonly Credential[]): void {
    this.markers.push(...markersOf(credentials));
  }

  /** Also watch for these strings (the admin token, in the fuzz suite). */
  addMarkers(markers: readonly string[]): void {
    this.markers.push(...markers);
  }

  watch(fetch: Fetch): Fetch {
    return async (request) => {
      const response = await fetch(request);
      const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
      const body = await response.clone().text();
      this.responses += 1;
      this.seen.push({
        what: `${request.method} ${request.url} → ${response.status}`,
        text: `${headers}\n\n${body}`,
      });
      return response;
    };
  }

  startConsole(): void {
    this.spies = CONSOLE_METHODS.map((method) => vi.spyOn(console, method));
  }

  /** Every response and console line free of every marker. */
  assertClean(): void {
    const logLines = this.spies.flatMap((spy) => spy.mock.calls.map((args) => args.map(printable).join(" ")));
    for (const marker of this.markers) {
      for (const { what, text } of this.seen) {
        expect(text.includes(marker), `upstream credential in the response to ${what}`).toBe(false);
      }
      for (const line of logLines)
        expect(line.includes(marker), `upstream credential in a log line: ${line}`).toBe(false);
    }
  }

  stopConsole(): void {
    for (const spy of this.spies) spy.mockRestore();
    this.spies = [];
  }

  /** Forgets what was seen (the suite-wide watch starts each test file afresh). */
  reset(): void {
    this.seen.length = 0;
    this.responses = 0;
  }
}

/**
 * The watch every test file shares: the support fetchers (`workerFetch`, `testEdge().fetch`)
 * pass every response through it, and `test/watch-secrets.ts` (a setup file) checks it after
 * each file's last test, so no test anywhere in the suite can see an upstream secret unnoticed.
 */
export const suiteSecretWatch = new SecretWatch(configuredUpstreamCredentials());

/**
 * A SecretWatch for the current test file, over the configured upstream pool: console spying
 * starts before the first test, and after the last the file fails if any watched response or
 * log line carried an upstream secret.
 */
export function watchForUpstreamSecrets(): SecretWatch {
  const watch = new SecretWatch(configuredUpstreamCredentials());
  beforeAll(() => watch.startConsole());
  afterAll(() => {
    try {
      expect(watch.responses, "the watch saw no response at all").toBeGreaterThan(0);
      watch.assertClean();
    } finally {
      watch.stopConsole();
    }
  });
  return watch;
}
