import { buildHistoryIndex, indexedHosts } from "./v3-history-index";
import { readHostHistories } from "./v3-host-histories";

/** A reader or writer bound to the database it takes first. */
type Bound<F> = F extends (db: D1Database, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/**
 * The Platform (v3) API's own stores and history readers as the routes use them, with the
 * database already given (as `Dataset` is for the scan dataset): host histories, the history
 * index, and the organizations' records (collections, tags, comments, members, scans, CensEye
 * jobs). Each reader is a plain module beside this one that takes the database it reads.
 */
export interface PlatformStore {
  readHostHistories: Bound<typeof readHostHistories>;
  buildHistoryIndex: Bound<typeof buildHistoryIndex>;
  indexedHosts: Bound<typeof indexedHosts>;
}

export function d1PlatformStore(db: D1Database): PlatformStore {
  return {
    readHostHistories: (...args) => readHostHistories(db, ...args),
    buildHistoryIndex: (...args) => buildHistoryIndex(db, ...args),
    indexedHosts: (...args) => indexedHosts(db, ...args),
  };
}
