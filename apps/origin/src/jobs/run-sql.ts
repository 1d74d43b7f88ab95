/**
 * Runs guarded SQL on the SNAPSHOTS database in bounded chunks:
 * `SELECT * FROM (<sql>) LIMIT <n> OFFSET <k>`, so no single call returns more than a chunk,
 * a result past `maxRows` is detected after reading one row too many, and each call is raced
 * against the job's deadline.
 */

/** A failure the job's owner is told about (`error_message`); anything else is retried. */
export class JobFailure extends Error {
  override readonly name = "JobFailure";
}

export interface ResultChunk {
  columns: string[];
  rows: unknown[][];
}

export interface RunBounds {
  /** Rows per database call. */
  chunkRows: number;
  /** More rows than this fails the job. */
  maxRows: number;
  /** Epoch ms after which the job fails. */
  deadline: number;
  /** Current epoch ms (wall clock: the deadline bounds real running time). */
  now?: () => number;
}

/** D1 prefixes its errors; the owner sees SQLite's own words. */
function sqlErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^D1_ERROR:\s*/, "").replace(/:\s*SQLITE_[A-Z_]+$/, "");
}

async function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  now: () => number,
  limitMs: number,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new JobFailure(`query exceeded the time limit of ${Math.round(limitMs / 1000)} s`)),
      Math.max(0, deadline - now()),
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function* readResultChunks(
  db: D1Database,
  sql: string,
  bounds: RunBounds,
): AsyncGenerator<ResultChunk> {
  const now = bounds.now ?? Date.now;
  const limitMs = bounds.deadline - now();
  let offset = 0;
  let total = 0;
  for (;;) {
    if (now() >= bounds.deadline) {
      throw new JobFailure(`query exceeded the time limit of ${Math.round(limitMs / 1000)} s`);
    }
    // Newlines around the query keep a trailing construct of it from touching the wrapper.
    const statement = db
      .prepare(`SELECT * FROM (\n${sql}\n) LIMIT ? OFFSET ?`)
      .bind(bounds.chunkRows, offset);
    let raw: unknown[][];
    try {
      raw = await withDeadline(statement.raw({ columnNames: true }), bounds.deadline, now, limitMs);
    } catch (error) {
      if (error instanceof JobFailure) throw error;
      throw new JobFailure(sqlErrorMessage(error));
    }
    const [names, ...rows] = raw;
    const columns = (names ?? []).map(String);
    total += rows.length;
    if (total > bounds.maxRows) {
      throw new JobFailure(
        `the result has more than ${bounds.maxRows} rows; narrow the query or use an export job`,
      );
    }
    if (rows.length > 0 || offset === 0) yield { columns, rows };
    if (rows.length < bounds.chunkRows) return;
    offset += bounds.chunkRows;
  }
}
