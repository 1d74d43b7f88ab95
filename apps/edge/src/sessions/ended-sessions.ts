import { eq, lt } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { endedSessions } from "../db/schema";

/** Session ids signed out before they expired (see the `ended_sessions` table). */
export class EndedSessions {
  constructor(private readonly db: EdgeDb) {}

  async end(sid: string, expiresAt: number): Promise<void> {
    await this.db.insert(endedSessions).values({ sid, expiresAt }).onConflictDoNothing();
  }

  async isEnded(sid: string): Promise<boolean> {
    const row = await this.db
      .select({ sid: endedSessions.sid })
      .from(endedSessions)
      .where(eq(endedSessions.sid, sid))
      .get();
    return row !== undefined;
  }

  /** Forgets sessions whose cookies have expired anyway; returns how many. */
  async purge(now: number): Promise<number> {
    const removed = await this.db
      .delete(endedSessions)
      .where(lt(endedSessions.expiresAt, now))
      .returning({ sid: endedSessions.sid });
    return removed.length;
  }
}
