import { aggregateField } from "./aggregate";
import { fieldRegistry } from "./field-catalog";
import { readCertificates, readHost, readHostAt, readHosts, readV1Document } from "./documents";
import { readCertificateHosts, readCertificateNames, readHostHistory } from "./host-records";
import { searchHosts } from "./hosts-search";
import { listServiceNames } from "./metadata";
import { searchV1 } from "./v1-search";

/** A reader of the dataset, as its module writes it, with the database already given. */
type Bound<F> = F extends (db: D1Database, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/**
 * The scan dataset as the routes read it: stored documents, searches and field breakdowns.
 * The worker's is the main D1 database (`d1Dataset`); the readers themselves are the plain
 * modules beside this one, which take the database they read.
 */
export interface Dataset {
  readV1Document: Bound<typeof readV1Document>;
  readCertificates: Bound<typeof readCertificates>;
  readHost: Bound<typeof readHost>;
  readHosts: Bound<typeof readHosts>;
  readHostAt: Bound<typeof readHostAt>;
  readHostHistory: Bound<typeof readHostHistory>;
  readCertificateNames: Bound<typeof readCertificateNames>;
  readCertificateHosts: Bound<typeof readCertificateHosts>;
  searchV1: Bound<typeof searchV1>;
  searchHosts: Bound<typeof searchHosts>;
  aggregateField: Bound<typeof aggregateField>;
  listServiceNames: Bound<typeof listServiceNames>;
  /** The searchable fields of an index: its hot columns and the dataset's field catalogue. */
  registry: Bound<typeof fieldRegistry>;
}

export function d1Dataset(db: D1Database): Dataset {
  return {
    readV1Document: (...args) => readV1Document(db, ...args),
    readCertificates: (...args) => readCertificates(db, ...args),
    readHost: (...args) => readHost(db, ...args),
    readHosts: (...args) => readHosts(db, ...args),
    readHostAt: (...args) => readHostAt(db, ...args),
    readHostHistory: (...args) => readHostHistory(db, ...args),
    readCertificateNames: (...args) => readCertificateNames(db, ...args),
    readCertificateHosts: (...args) => readCertificateHosts(db, ...args),
    searchV1: (...args) => searchV1(db, ...args),
    searchHosts: (...args) => searchHosts(db, ...args),
    aggregateField: (...args) => aggregateField(db, ...args),
    listServiceNames: () => listServiceNames(db),
    registry: (...args) => fieldRegistry(db, ...args),
  };
}
