import { JobFailure } from "../jobs/job-sql";
import type { ExportFile } from "../jobs/store";
import { GzipWriter, R2ObjectWriter } from "./r2-writer";

/**
 * Writes an export's records into numbered files under `exports/<job_id>/`, starting a new
 * file whenever the next record would take the current one past `maxBytes`, so no stored file
 * is larger than that. Every file starts with the header (CSV), and records never straddle
 * two files.
 *
 * Uncompressed files are measured exactly. A gzip file's size is only known once written, so
 * its records are admitted against zlib's worst case for the input so far (deflateBound: even
 * incompressible bytes grow by at most that much), which keeps the promise without buffering.
 */

const encoder = new TextEncoder();
/** Records are handed to the file in slices of this size (fewer, larger compressor writes). */
const SLICE_BYTES = 64 * 1024;
/** gzip header and trailer. */
const GZIP_FRAME_BYTES = 18;
/** Allowance per compressor write, for a flush block it might end with. */
const PER_WRITE_BYTES = 6;

/** The most a gzip stream of `input` bytes given in `writes` writes can take. */
export function gzipBound(input: number, writes: number): number {
  return input + ((input + 7) >> 3) + ((input + 63) >> 6) + 5 + GZIP_FRAME_BYTES + PER_WRITE_BYTES * writes;
}

export interface SplitterOptions {
  bucket: R2Bucket;
  jobId: string;
  /** `csv` or `json`. */
  extension: string;
  contentType: string;
  compress: boolean;
  maxBytes: number;
  /** Text every file starts with ("" for none). */
  header: string;
}

interface OpenFile {
  name: string;
  object: R2ObjectWriter;
  gzip: GzipWriter | undefined;
  /** Uncompressed bytes admitted, including the pending slice. */
  bytes: number;
  writes: number;
  pending: string[];
  pendingBytes: number;
}

export function exportPrefix(jobId: string): string {
  return `exports/${jobId}/`;
}

export class ExportFileSplitter {
  private current: OpenFile | undefined;
  private readonly files: ExportFile[] = [];
  private readonly headerBytes: number;

  constructor(private readonly options: SplitterOptions) {
    this.headerBytes = encoder.encode(options.header).byteLength;
  }

  /** Whether a file holding `bytes` of input in `writes` writes stays within the limit. */
  private fits(bytes: number, writes: number): boolean {
    const stored = this.options.compress ? gzipBound(bytes, writes) : bytes;
    return stored <= this.options.maxBytes;
  }

  async writeRecord(text: string): Promise<void> {
    const size = encoder.encode(text).byteLength;
    let file = this.current;
    if (file && !this.fits(file.bytes + size, file.writes + 2)) {
      await this.closeCurrent();
      file = undefined;
    }
    file ??= this.open();
    if (!this.fits(file.bytes + size, file.writes + 2)) {
      throw new JobFailure(
        `a row is larger than the export file size limit of ${this.options.maxBytes} bytes`,
      );
    }
    file.pending.push(text);
    file.pendingBytes += size;
    file.bytes += size;
    if (file.pendingBytes >= SLICE_BYTES) await this.flush(file);
  }

  /** Closes the last file; an empty result still gets one file (its header only). */
  async finish(): Promise<ExportFile[]> {
    if (this.current === undefined && this.files.length === 0) this.open();
    await this.closeCurrent();
    return this.files;
  }

  /** Aborts the open file after a failure; files already closed are removed by the caller. */
  async abort(): Promise<void> {
    const file = this.current;
    this.current = undefined;
    if (file) await file.object.abort().catch(() => undefined);
  }

  private open(): OpenFile {
    const { bucket, jobId, extension, compress, contentType } = this.options;
    const sequence = String(this.files.length + 1).padStart(3, "0");
    const name = `${jobId}-${sequence}.${extension}${compress ? ".gz" : ""}`;
    const object = new R2ObjectWriter(bucket, `${exportPrefix(jobId)}${name}`, {
      contentType: compress ? "application/gzip" : contentType,
      contentDisposition: `attachment; filename="${name}"`,
    });
    const file: OpenFile = {
      name,
      object,
      gzip: compress ? new GzipWriter(object) : undefined,
      bytes: 0,
      writes: 0,
      pending: [],
      pendingBytes: 0,
    };
    if (!this.fits(this.headerBytes, 1)) {
      throw new JobFailure(
        `the header is larger than the export file size limit of ${this.options.maxBytes} bytes`,
      );
    }
    if (this.options.header !== "") {
      file.pending.push(this.options.header);
      file.pendingBytes += this.headerBytes;
      file.bytes += this.headerBytes;
    }
    this.current = file;
    return file;
  }

  private async flush(file: OpenFile): Promise<void> {
    if (file.pending.length === 0) return;
    const bytes = encoder.encode(file.pending.join(""));
    file.pending = [];
    file.pendingBytes = 0;
    file.writes += 1;
    await (file.gzip ?? file.object).write(bytes);
  }

  private async closeCurrent(): Promise<void> {
    const file = this.current;
    if (!file) return;
    await this.flush(file);
    if (file.gzip) await file.gzip.close();
    const size = await file.object.close();
    this.current = undefined;
    this.files.push({ name: file.name, key: file.object.key, size });
  }
}
