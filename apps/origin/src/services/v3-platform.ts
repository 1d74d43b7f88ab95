import { readWebsites } from "./documents";
import { readWebproperty } from "./v3-webproperty";
import { listCollectionEvents, recentChanges } from "./v3-collection-events";
import {
  createCollection,
  deleteCollection,
  evaluateCollection,
  heldDataset,
  listCollections,
  readCollection,
  refreshCollection,
  updateCollection,
} from "./v3-collections";
import { createJob, listJobs, readJob } from "./v3-censeye";
import { createComment, deleteComment, listComments, readComment, updateComment } from "./v3-comments";
import { countEnrichment } from "./v3-enrichment";
import { changeMember, invite, loginTimes, memberChange, memberChanges } from "./v3-members";
import { buildHistoryIndex, indexedHosts } from "./v3-history-index";
import { matchCount, matchPage } from "./v3-matches";
import { createScan, latestScans, latestScansOf, readScan } from "./v3-scans";
import {
  cancelOperation,
  listOperations,
  readOperation,
  startBulkCreate,
  startBulkDelete,
} from "./v3-tag-operations";
import {
  assign,
  createTag,
  deleteTag,
  listAssignments,
  listTags,
  readTag,
  unassign,
  updateTag,
} from "./v3-tags";
import { readHostHistories } from "./v3-host-histories";
import { countThreats } from "./v3-threats";

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
  /** The websites named (lowercase), with the address each resolves to now. */
  readWebsites: Bound<typeof readWebsites>;
  countEnrichment: Bound<typeof countEnrichment>;
  createScan: Bound<typeof createScan>;
  readScan: Bound<typeof readScan>;
  latestScans: Bound<typeof latestScans>;
  latestScansOf: Bound<typeof latestScansOf>;
  heldDataset: Bound<typeof heldDataset>;
  evaluateCollection: Bound<typeof evaluateCollection>;
  createCollection: Bound<typeof createCollection>;
  readCollection: Bound<typeof readCollection>;
  refreshCollection: Bound<typeof refreshCollection>;
  updateCollection: Bound<typeof updateCollection>;
  deleteCollection: Bound<typeof deleteCollection>;
  listCollections: Bound<typeof listCollections>;
  recentChanges: Bound<typeof recentChanges>;
  listCollectionEvents: Bound<typeof listCollectionEvents>;
  memberChange: Bound<typeof memberChange>;
  memberChanges: Bound<typeof memberChanges>;
  changeMember: Bound<typeof changeMember>;
  invite: Bound<typeof invite>;
  loginTimes: Bound<typeof loginTimes>;
  matchPage: Bound<typeof matchPage>;
  matchCount: Bound<typeof matchCount>;
  createTag: Bound<typeof createTag>;
  readTag: Bound<typeof readTag>;
  listTags: Bound<typeof listTags>;
  updateTag: Bound<typeof updateTag>;
  deleteTag: Bound<typeof deleteTag>;
  assign: Bound<typeof assign>;
  listAssignments: Bound<typeof listAssignments>;
  unassign: Bound<typeof unassign>;
  startBulkCreate: Bound<typeof startBulkCreate>;
  startBulkDelete: Bound<typeof startBulkDelete>;
  readOperation: Bound<typeof readOperation>;
  listOperations: Bound<typeof listOperations>;
  cancelOperation: Bound<typeof cancelOperation>;
  createComment: Bound<typeof createComment>;
  readComment: Bound<typeof readComment>;
  updateComment: Bound<typeof updateComment>;
  deleteComment: Bound<typeof deleteComment>;
  listComments: Bound<typeof listComments>;
  createJob: Bound<typeof createJob>;
  readJob: Bound<typeof readJob>;
  listJobs: Bound<typeof listJobs>;
  readWebproperty: Bound<typeof readWebproperty>;
  countThreats: Bound<typeof countThreats>;
}

export function d1PlatformStore(db: D1Database): PlatformStore {
  return {
    readHostHistories: (...args) => readHostHistories(db, ...args),
    buildHistoryIndex: (...args) => buildHistoryIndex(db, ...args),
    indexedHosts: (...args) => indexedHosts(db, ...args),
    readWebsites: (...args) => readWebsites(db, ...args),
    countEnrichment: (...args) => countEnrichment(db, ...args),
    createScan: (...args) => createScan(db, ...args),
    readScan: (...args) => readScan(db, ...args),
    latestScans: (...args) => latestScans(db, ...args),
    latestScansOf: (...args) => latestScansOf(db, ...args),
    heldDataset: () => heldDataset(db),
    evaluateCollection: (...args) => evaluateCollection(db, ...args),
    createCollection: (...args) => createCollection(db, ...args),
    readCollection: (...args) => readCollection(db, ...args),
    refreshCollection: (...args) => refreshCollection(db, ...args),
    updateCollection: (...args) => updateCollection(db, ...args),
    deleteCollection: (...args) => deleteCollection(db, ...args),
    listCollections: (...args) => listCollections(db, ...args),
    recentChanges: (...args) => recentChanges(db, ...args),
    listCollectionEvents: (...args) => listCollectionEvents(db, ...args),
    memberChange: (...args) => memberChange(db, ...args),
    memberChanges: (...args) => memberChanges(db, ...args),
    changeMember: (...args) => changeMember(db, ...args),
    invite: (...args) => invite(db, ...args),
    loginTimes: (...args) => loginTimes(db, ...args),
    matchPage: (...args) => matchPage(db, ...args),
    matchCount: (...args) => matchCount(db, ...args),
    createTag: (...args) => createTag(db, ...args),
    readTag: (...args) => readTag(db, ...args),
    listTags: (...args) => listTags(db, ...args),
    updateTag: (...args) => updateTag(db, ...args),
    deleteTag: (...args) => deleteTag(db, ...args),
    assign: (...args) => assign(db, ...args),
    listAssignments: (...args) => listAssignments(db, ...args),
    unassign: (...args) => unassign(db, ...args),
    startBulkCreate: (...args) => startBulkCreate(db, ...args),
    startBulkDelete: (...args) => startBulkDelete(db, ...args),
    readOperation: (...args) => readOperation(db, ...args),
    listOperations: (...args) => listOperations(db, ...args),
    cancelOperation: (...args) => cancelOperation(db, ...args),
    createComment: (...args) => createComment(db, ...args),
    readComment: (...args) => readComment(db, ...args),
    updateComment: (...args) => updateComment(db, ...args),
    deleteComment: (...args) => deleteComment(db, ...args),
    listComments: (...args) => listComments(db, ...args),
    createJob: (...args) => createJob(db, ...args),
    readJob: (...args) => readJob(db, ...args),
    listJobs: (...args) => listJobs(db, ...args),
    readWebproperty: (...args) => readWebproperty(db, ...args),
    countThreats: (...args) => countThreats(db, ...args),
  };
}
