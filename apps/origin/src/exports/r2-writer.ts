/**
 * Streams one object into R2 without holding it in memory: bytes are cut into equal parts of
 * `partSize` (R2 wants every part but the last the same size, at least 5 MiB) and sent as a
 * multipart upload; an object that never fills one part is written with a single put.
 */

export const R2_PART_SIZE = 8 * 1024 * 1024;

export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
}

export class R2ObjectWriter implements ByteSink {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private upload: R2MultipartUpload | undefined;
  private readonly parts: R2UploadedPart[] = [];
  /** Bytes written so far. */
  size = 0;

  constructor(
    private readonly bucket: R2Bucket,
    readonly key: string,
    private readonly httpMetadata: R2HTTPMetadata,
    private readonly partSize = R2_PART_SIZE,
  ) {}

  async write(bytes: Uint8Array): Promise<void> {
    this.chunks.push(bytes);
    this.buffered += bytes.byteLength;
    this.size += bytes.byteLength;
    while (this.buffered >= this.partSize) await this.uploadPart(this.take(this.partSize));
  }

  /** Finishes the object; returns its size in bytes. */
  async close(): Promise<number> {
    const rest = this.take(this.buffered);
    if (this.upload === undefined) {
      await this.bucket.put(this.key, rest, { httpMetadata: this.httpMetadata });
    } else {
      if (rest.byteLength > 0) await this.uploadPart(rest);
      await this.upload.complete(this.parts);
    }
    return this.size;
  }

  /** Gives up the object (a failed job leaves no half-written files behind). */
  async abort(): Promise<void> {
    if (this.upload !== undefined) await this.upload.abort();
  }

  private async uploadPart(bytes: Uint8Array): Promise<void> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, { httpMetadata: this.httpMetadata });
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, bytes));
  }

  /** Removes exactly `n` bytes from the front of the buffer. */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0];
      if (head === undefined) break;
      const used = Math.min(head.byteLength, n - filled);
      out.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.byteLength) this.chunks.shift();
      else this.chunks[0] = head.subarray(used);
    }
    this.buffered -= n;
    return out;
  }
}

/**
 * Gzip in front of a sink (CompressionStream, as Workers provide it). The compressed side is
 * drained concurrently, so writes never wait on a reader that is not there.
 */
export class GzipWriter implements ByteSink {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly drained: Promise<void>;

  constructor(sink: ByteSink) {
    const stream = new CompressionStream("gzip");
    this.writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    this.drained = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        await sink.write(value);
      }
    })();
    // If the sink fails, fail the writer too, so a pending write does not wait forever.
    this.drained.catch((error: unknown) => this.writer.abort(error).catch(() => undefined));
  }

  async write(bytes: Uint8Array): Promise<void> {
    await this.writer.write(bytes);
  }

  async close(): Promise<void> {
    await this.writer.close();
    await this.drained;
  }
}
