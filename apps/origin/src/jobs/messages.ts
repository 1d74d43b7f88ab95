import { z } from "zod";

/**
 * What the JOBS queue carries: only the job id. Everything else is read from the job row, so a
 * message delivered twice, late, or after the job expired does nothing harmful.
 */
export const jobMessageSchema = z.object({ job_id: z.string().regex(/^job_[0-9a-f]{32}$/) });
export type JobMessage = z.infer<typeof jobMessageSchema>;

/** Prefixed job ids (`job_` + 128 random bits in hex). */
export function newJobId(): string {
  return `job_${crypto.randomUUID().replaceAll("-", "")}`;
}
