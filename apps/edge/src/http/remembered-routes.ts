import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { BoundedMemo } from "./bounded-memo";

/** How many distinct method and path pairs the isolate remembers the match of. */
const MATCHES_MAX = 1024;
/** Longer paths are matched afresh every time: no route's own path comes near it. */
const REMEMBERED_PATH_MAX_CHARS = 256;

/**
 * Hono's default router with its answers remembered per method and path. Our routes put fixed
 * paths beside parameters (`/api/v2/hosts/search` beside `/api/v2/hosts/:ip`), which the
 * RegExpRouter refuses, so the TrieRouter answers: it walks the tree and sorts the handlers it
 * found on every request, and a team's clients ask the same few paths over and over. A match
 * depends on nothing else, and Hono only reads it, so one answer serves every request of a path.
 */
export class RememberedRoutes<T> implements Router<T> {
  readonly name = "RememberedRoutes";
  private readonly router: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  private readonly matches = new BoundedMemo<Result<T>>(MATCHES_MAX, REMEMBERED_PATH_MAX_CHARS);

  add(method: string, path: string, handler: T): void {
    this.router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    return this.matches.get(key) ?? this.matches.remember(key, this.router.match(method, path));
  }
}
