import type { DocumentCache } from "../cache/interface";
import { cachedRow } from "../cache/refresh";
import type { V1Paging } from "../upstream/interface";

// The Platform's page tokens of a v1 search, kept between pages in the edge's document cache
// (its D1 table behind the isolate's memory tier), one row per (tenant, index, query, page):
// the page a token starts. Page N of a query whose page K was read before (the highest K < N,
// at most V1_SEARCH_PAGE_MAX below: upstream/legacy-v1.ts) then costs the N - K Platform
// searches from page K+1, not N. A token is the upstream's to expire; one kept longer than it
// lives would be refused, so rows live a short while (PAGE_TOKEN_TTL_MS).

/** How long a kept token serves: a client paging through a result set does so within minutes. */
export const PAGE_TOKEN_TTL_MS = 15 * 60 * 1000;

/** The cache index page tokens are kept under (never served as a document). */
export const PAGE_TOKEN_INDEX = "v1_page_tokens";

/** The cache id of one tenant's search: its index and its query as sent. */
export function pageTokenId(tenantId: string, index: string, query: string): string {
  return JSON.stringify([tenantId, index, query]);
}

/** One request's paging: the route asks where the walk starts (its hold), then the translation does. */
export class CachedPageTokens implements V1Paging {
  private readonly kept: { page: number; token: string }[] = [];
  private readonly read = new Map<number, Promise<string | null>>();

  constructor(
    private readonly cache: DocumentCache,
    private readonly id: string,
    private readonly now: () => number,
  ) {}

  /** Read from the cache once per request: a second ask of a page gets the first one's answer. */
  tokenOf(page: number): Promise<string | null> {
    let token = this.read.get(page);
    if (token === undefined) {
      token = this.readToken(page);
      this.read.set(page, token);
    }
    return token;
  }

  private async readToken(page: number): Promise<string | null> {
    const row = await this.cache.get({ index: PAGE_TOKEN_INDEX, id: this.id, atTime: String(page) });
    if (!row || row.negative || (row.expiresAt !== null && row.expiresAt <= this.now())) return null;
    const token = JSON.parse(row.body) as unknown;
    return typeof token === "string" && token !== "" ? token : null;
  }

  keep(page: number, token: string): void {
    this.kept.push({ page, token });
  }

  /** Writes the tokens this request reached (the request's waitUntil gets the D1 write). */
  async save(defer: (write: Promise<void>) => void): Promise<void> {
    if (this.kept.length === 0) return;
    const fetchedAt = this.now();
    await this.cache.putSoon(
      this.kept.map(({ page, token }) => ({
        key: { index: PAGE_TOKEN_INDEX, id: this.id, atTime: String(page) },
        doc: cachedRow(JSON.stringify(token), false, fetchedAt, PAGE_TOKEN_TTL_MS / 1000),
      })),
      defer,
    );
  }
}
