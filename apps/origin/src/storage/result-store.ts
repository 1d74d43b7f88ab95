/**
 * The store of query result pages, export files and raw-data files (the EXPORTS bucket in the
 * worker). Objects are written once under a key and read back whole or as a stream.
 */

/** What a reader needs of a stored object: R2's own object satisfies it. */
export type StoredObject = Pick<R2ObjectBody, "body" | "size" | "httpEtag" | "writeHttpMetadata" | "json">;

export interface ResultStore {
  /** The object at `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  put(key: string, value: string | Uint8Array, contentType: string): Promise<void>;
  /** Deletes every object under `prefix`; how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
}

/** Deletes every object under `prefix` (R2 lists at most 1000 keys per call). */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const listing = await bucket.list({ prefix, limit: 1000 });
    const keys = listing.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    if (!listing.truncated) return deleted;
  }
}

export function r2ResultStore(bucket: R2Bucket): ResultStore {
  return {
    get: (key) => bucket.get(key),
    async put(key, value, contentType) {
      await bucket.put(key, value, { httpMetadata: { contentType } });
    },
    deletePrefix: (prefix) => deletePrefix(bucket, prefix),
  };
}
