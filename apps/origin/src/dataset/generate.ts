import { DATASET_NOW, isoSeconds } from "./clock";
import { AUTHORITIES } from "./certs/authorities";
import { buildCertificateCatalog, certificateDocument, type CatalogEntry } from "./certs/catalog";
import { CtLogs } from "./certs/ct-logs";
import { pemToDer } from "./encoding";
import { LeafRecorder } from "./field-catalog";
import { HostFactory, type LeafPools } from "./hosts/host";
import type { TlsLeaf } from "./hosts/services";
import { Prng } from "./prng";
import { HOT_REGISTRIES } from "./registries";
import { certificateRows, hostRows, type TableRow } from "./rows";
import { InsertBatcher, type DatasetTable, type Row } from "./sql";
import { WebsiteCollector } from "./websites";

/**
 * The dataset generator: a seed and two sizes in, table rows out through a sink, so a
 * 100,000-host dataset streams into D1 (or to disk) instead of living in memory. Same inputs,
 * same rows, byte for byte.
 */

/** Bumped whenever the generator's output changes, so a seeded database is rebuilt. */
export const GENERATOR_VERSION = 3;

export interface DatasetOptions {
  seed: string;
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

export function datasetFingerprint(options: Pick<DatasetOptions, "seed" | "hosts" | "certs">): string {
  return `v${GENERATOR_VERSION}:${options.seed}:${options.hosts}:${options.certs}`;
}

function tlsLeaf(entry: CatalogEntry): TlsLeaf {
  const f = entry.parsed.facts;
  return {
    sha256: f.sha256,
    chain: entry.chainFingerprints,
    pubkeyAlgorithm: f.publicKey.algorithm,
    pubkeyBits: f.publicKey.bits,
    subjectDn: f.subjectDn,
    issuerDn: f.issuerDn,
    names: f.names,
    tbsFingerprint: String((entry.parsed.parsed as { tbs_fingerprint: string }).tbs_fingerprint),
    legacy: f.publicKey.bits < 2048 && f.publicKey.algorithm === "RSA",
    domain: entry.domain,
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
  const rng = new Prng(`scangate-dataset:${options.seed}`);
  const certRng = rng.fork("certificates");
  const hostRng = rng.fork("hosts");
  const websiteRng = rng.fork("websites");
  const rootDers = options.rootPems.map(pemToDer);
  const leafCount = Math.max(MIN_LEAVES, options.certs - rootDers.length - AUTHORITIES.length);

  options.onProgress?.(
    `certificates: ${rootDers.length} real roots, ${AUTHORITIES.length} generated CAs, ${leafCount} leaves`,
  );
  const catalog = await buildCertificateCatalog({
    rng: certRng,
    rootDers,
    leafCount,
    ctLogs: new CtLogs(options.seed),
    onProgress: progress(options, "certificates issued", leafCount),
  });

  const servable = catalog.entries.filter((e) => e.role === "leaf" && e.origin === "generated" && !e.precert);
  const pools: LeafPools = {
    issued: servable.filter((e) => !e.chain.selfSigned).map(tlsLeaf),
    selfSigned: servable.filter((e) => e.chain.selfSigned).map(tlsLeaf),
  };
  const factory = new HostFactory(hostRng, pools);
  const websites = new WebsiteCollector();
  const served = new Set<string>();
  const domainOf = (sha: string) => catalog.bySha256.get(sha)?.domain;
  const emitRows = (rows: TableRow[]) => rows.forEach(([table, row]) => sink.add(table, row));
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
    hosts: options.hosts,
    certificates: catalog.entries.length,
    websites: websites.size,
    services,
    historyRows,
    now: isoSeconds(DATASET_NOW),
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
