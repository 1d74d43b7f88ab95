import { datasetClock, isoSeconds } from "./clock";
import { AUTHORITIES } from "./certs/authorities";
import { buildCertificateCatalog, certificateDocument, type CatalogEntry } from "./certs/catalog";
import { CtLogs } from "./certs/ct-logs";
import { pemToDer } from "./encoding";
import { LeafRecorder } from "./field-catalog";
import { HostFactory, type LeafPools } from "./hosts/host";
import type { TlsLeaf } from "./hosts/services";
import { Prng } from "./prng";
import { HOT_REGISTRIES } from "./registries";
import { THREATS } from "./threats";
import { certificateRows, hostRows, type TableRow } from "./rows";
import { InsertBatcher, type DatasetTable, type Row } from "./sql";
import { WebsiteCollector } from "./websites";

/**
 * The dataset generator: a seed and two sizes in, table rows out through a sink, so a
 * 100,000-host dataset streams into D1 (or to disk) instead of living in memory. Same inputs,
 * same rows, byte for byte.
 */

/** Bumped whenever the generator's output changes, so a seeded database is rebuilt. */
export const GENERATOR_VERSION = 6;

export interface DatasetOptions {
  seed: string;
  /** The seed day (`YYYY-MM-DD`, UTC): the dataset's latest snapshot day (clock.ts). */
  day: string;
  hosts: number;
  /** Total certificates: all real roots, the generated CAs, and leaves for the rest. */
  certs: number;
  /** PEM certificates of the nss store (Node's `tls.rootCertificates`). */
  rootPems: readonly string[];
  /** Progress lines (for stderr on long runs). */
  onProgress?: (message: string) => void;
}

export interface DatasetSummary {
  seed: string;
  /** The seed day, `YYYY-MM-DD`: the latest snapshot day. */
  day: string;
  hosts: number;
  certificates: number;
  websites: number;
  services: number;
  historyRows: number;
  now: string;
  /** What `dataset_meta.dataset` holds: identifies the generator version, seed and sizes. */
  fingerprint: string;
}

/** Minimum number of generated leaves, whatever `certs` says. */
export const MIN_LEAVES = 20;

/** Receives rows; `drain` is awaited after every host so a sink can write what it has batched. */
export interface DatasetSink {
  add(table: DatasetTable, row: Row): void;
  drain(): Promise<void>;
}

/** What a dataset is made from apart from its day: the generator version, seed and sizes. */
export function datasetIdentity(options: Pick<DatasetOptions, "seed" | "hosts" | "certs">): string {
  return `v${GENERATOR_VERSION}:${options.seed}:${options.hosts}:${options.certs}`;
}

/** What `dataset_meta.dataset` holds: the identity and the seed day. */
export function datasetFingerprint(
  options: Pick<DatasetOptions, "seed" | "hosts" | "certs" | "day">,
): string {
  return `${datasetIdentity(options)}:${options.day}`;
}

function tlsLeaf(entry: CatalogEntry): TlsLeaf {
  const f = entry.parsed.facts;
  const parsed = entry.parsed.parsed as {
    tbs_fingerprint: string;
    subject_key_info: { fingerprint_sha256: string };
  };
  return {
    sha256: f.sha256,
    chain: entry.chainFingerprints,
    pubkeyAlgorithm: f.publicKey.algorithm,
    pubkeyBits: f.publicKey.bits,
    subjectDn: f.subjectDn,
    issuerDn: f.issuerDn,
    subject: f.subject,
    issuer: f.issuer,
    names: f.names,
    tbsFingerprint: String(parsed.tbs_fingerprint),
    spkiFingerprint: String(parsed.subject_key_info.fingerprint_sha256),
    legacy: f.publicKey.bits < 2048 && f.publicKey.algorithm === "RSA",
    selfSigned: entry.chain.selfSigned,
    notAfter: f.notAfter,
    ...(entry.domain ? { domain: entry.domain } : {}),
    ...(entry.threat ? { threat: entry.threat } : {}),
  };
}

function progress(options: DatasetOptions, label: string, total: number): (done: number) => void {
  const step = Math.max(1, Math.ceil(total / 10));
  return (done) => {
    if (done === total || done % step === 0)
      options.onProgress?.(`${label}: ${done}/${total} (${Math.round((done / total) * 100)}%)`);
  };
}

export async function generateDataset(options: DatasetOptions, sink: DatasetSink): Promise<DatasetSummary> {
  const clock = datasetClock(options.day);
  if (clock === null)
    throw new Error(`the seed day must be a date like 2026-11-27, not ${JSON.stringify(options.day)}`);
  // The day is part of the seed: another day is another dataset, the same day the same one.
  const rng = new Prng(`scangate-dataset:${options.seed}:${options.day}`);
  const certRng = rng.fork("certificates");
  const hostRng = rng.fork("hosts");
  const websiteRng = rng.fork("websites");
  const rootDers = options.rootPems.map(pemToDer);
  // The threats' default certificates (threats.ts) count among the total, as the leaves do.
  const threatLeaves = THREATS.filter((threat) => threat.certificate).length;
  const leafCount = Math.max(MIN_LEAVES, options.certs - rootDers.length - AUTHORITIES.length - threatLeaves);

  options.onProgress?.(
    `certificates: ${rootDers.length} real roots, ${AUTHORITIES.length} generated CAs, ${leafCount} leaves`,
  );
  const catalog = await buildCertificateCatalog({
    rng: certRng,
    rootDers,
    leafCount,
    ctLogs: new CtLogs(options.seed),
    now: clock.now,
    onProgress: progress(options, "certificates issued", leafCount),
  });

  const servable = catalog.entries.filter((e) => e.role === "leaf" && e.origin === "generated" && !e.precert);
  const ordinary = servable.filter((e) => e.threat === undefined);
  const pools: LeafPools = {
    issued: ordinary.filter((e) => !e.chain.selfSigned).map(tlsLeaf),
    selfSigned: ordinary.filter((e) => e.chain.selfSigned).map(tlsLeaf),
    threats: new Map(servable.flatMap((e) => (e.threat ? [[e.threat, tlsLeaf(e)] as const] : []))),
  };
  const factory = new HostFactory(hostRng, pools, clock.now);
  const websites = new WebsiteCollector();
  const served = new Set<string>();
  const domainOf = (sha: string) => catalog.bySha256.get(sha)?.domain;
  // Bodies repeat across services (a default page, a site's home): each distinct one is kept once.
  const bodies = new Set<string>();
  const emitRows = (rows: TableRow[]) =>
    rows.forEach(([table, row]) => {
      if (table === "http_bodies") {
        if (bodies.has(String(row.sha256))) return;
        bodies.add(String(row.sha256));
      }
      sink.add(table, row);
    });
  // The leaves of every stored document, from the very JSON the API serves.
  const leaves = new LeafRecorder(HOT_REGISTRIES);
  const hostProgress = progress(options, "hosts", options.hosts);
  let services = 0;
  let historyRows = 0;
  for (let i = 0; i < options.hosts; i++) {
    const host = factory.create();
    emitRows(hostRows(host, i + 1, services + 1));
    const serviceIds = host.current.map((_, k) => services + 1 + k);
    emitRows(leaves.rows("hosts", host.document, i + 1, serviceIds));
    emitRows(leaves.rows("ipv4", host.v1Document, i + 1));
    services += host.current.length;
    historyRows += host.historyDocuments.length;
    for (const { spec } of host.current) if (spec.certificate) served.add(spec.certificate);
    websites.observe(host, domainOf);
    hostProgress(i + 1);
    await sink.drain();
  }

  for (const [i, entry] of catalog.entries.entries()) {
    const document = certificateDocument(catalog, entry, served.has(entry.parsed.facts.sha256));
    emitRows(certificateRows(entry, document, i + 1));
    emitRows(leaves.rows("certificates", document, i + 1));
    await sink.drain();
  }
  for (const [table, row] of websites.rows(websiteRng)) {
    sink.add(table, row);
    if (table === "websites")
      emitRows(leaves.rows("websites", JSON.parse(String(row.doc)), Number(row.rowid)));
  }
  emitRows(leaves.catalogRows());

  const summary: DatasetSummary = {
    seed: options.seed,
    day: options.day,
    hosts: options.hosts,
    certificates: catalog.entries.length,
    websites: websites.size,
    services,
    historyRows,
    now: isoSeconds(clock.now),
    fingerprint: datasetFingerprint(options),
  };
  sink.add("dataset_meta", { key: "dataset", value: summary.fingerprint });
  sink.add("dataset_meta", { key: "summary", value: JSON.stringify(summary) });
  await sink.drain();
  options.onProgress?.(
    `done: ${summary.hosts} hosts, ${summary.certificates} certificates, ${summary.websites} websites`,
  );
  return summary;
}

/** The whole dataset as INSERT statements (for small datasets: tests and fixtures). */
export async function generateDatasetSql(
  options: DatasetOptions,
): Promise<{ statements: string[]; summary: DatasetSummary }> {
  const statements: string[] = [];
  const batcher = new InsertBatcher((statement) => statements.push(statement));
  const summary = await generateDataset(options, {
    add: (table, row) => batcher.add(table, row),
    drain: () => Promise.resolve(),
  });
  batcher.flush();
  return { statements, summary };
}
