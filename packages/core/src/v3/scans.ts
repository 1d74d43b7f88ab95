import { z } from "zod";
import { ipAddressSchema } from "../indexes";

/**
 * Live Rescan and Live Discovery (tracked scans), following the SDK's `ScansRescanInputBody`,
 * `ScansDiscoveryInputBody` and `TrackedScan`.
 */

const port = z.number().int().min(1).max(65535);
const hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, "expected a host name");

/** SDK `ScansRescanInputBody`: a known service (`service_id`) or a web origin. */
export const v3RescanInputSchema = z
  .object({
    target: z.union([
      z.object({
        service_id: z
          .object({
            ip: ipAddressSchema,
            port,
            protocol: z.string().min(1).max(64),
            transport_protocol: z.enum(["tcp", "udp", "quic", "unknown"]),
          })
          .loose(),
      }),
      z.object({ web_origin: z.object({ hostname, port }).loose() }),
    ]),
  })
  .loose();
export type V3RescanInput = z.infer<typeof v3RescanInputSchema>;

/** SDK `ScansDiscoveryInputBody`: an address and port, or a host name and port. */
export const v3DiscoveryInputSchema = z
  .object({
    target: z.union([
      z.object({ host_port: z.object({ ip: ipAddressSchema, port }).loose() }),
      z.object({ hostname_port: z.object({ hostname, port }).loose() }),
    ]),
  })
  .loose();
export type V3DiscoveryInput = z.infer<typeof v3DiscoveryInputSchema>;

/** SDK `TrackedScanTaskStatus` (an open enum). */
export const V3_SCAN_TASK_STATUSES = [
  "",
  "scanning",
  "scanned",
  "rejected",
  "timed_out",
  "completed",
  "ignored",
] as const;

/** SDK `TrackedScan`: every member is optional there. */
export const v3TrackedScanSchema = z
  .object({
    tracked_scan_id: z.string().optional(),
    create_time: z.string().optional(),
    completed: z.boolean().optional(),
    target: z
      .object({
        service_id: z.record(z.string(), z.unknown()).optional(),
        web_origin: z.record(z.string(), z.unknown()).optional(),
        host_port: z.record(z.string(), z.unknown()).optional(),
        hostname_port: z.record(z.string(), z.unknown()).optional(),
      })
      .loose()
      .optional(),
    tasks: z
      .array(
        z
          .object({
            description: z.string().optional(),
            status: z.string().optional(),
            update_time: z.string().optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();
export type V3TrackedScan = z.infer<typeof v3TrackedScanSchema>;
