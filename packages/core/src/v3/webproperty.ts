import { z } from "zod";
import { v3CertificateSchema } from "./certificate";
import { v3Asset } from "./envelope";
import { v3AttributeSchema, v3EndpointScanStateSchema, v3TlsSchema } from "./host";

/** SDK `Webproperty`: a name (or address) and port, with what was served there. Open. */
export const v3WebpropertySchema = z
  .object({
    hostname: z.string().optional(),
    port: z.number().int().optional(),
    scan_time: z.string().optional(),
    cert: v3CertificateSchema.optional(),
    endpoints: z.array(v3EndpointScanStateSchema).optional(),
    software: z.array(v3AttributeSchema).optional(),
    hardware: z.array(v3AttributeSchema).optional(),
    operating_systems: z.array(v3AttributeSchema).optional(),
    tls: v3TlsSchema.optional(),
    labels: z.array(z.looseObject({ value: z.string().optional() })).optional(),
  })
  .loose();
export type V3Webproperty = z.infer<typeof v3WebpropertySchema>;

/** SDK `WebpropertyAsset`. */
export const v3WebpropertyAssetSchema = v3Asset(v3WebpropertySchema);
export type V3WebpropertyAsset = z.infer<typeof v3WebpropertyAssetSchema>;

/**
 * A web property id: `hostname:port` (the SDK's `webproperty_id`, e.g. `example.com:443`).
 * The port is the text after the last colon, 1..65535.
 */
export function parseWebpropertyId(id: string): { hostname: string; port: number } | null {
  const colon = id.lastIndexOf(":");
  if (colon <= 0) return null;
  const hostname = id.slice(0, colon);
  const portText = id.slice(colon + 1);
  if (!/^\d{1,5}$/.test(portText)) return null;
  const port = Number(portText);
  if (port < 1 || port > 65535 || /\s/.test(hostname)) return null;
  return { hostname: hostname.toLowerCase(), port };
}

export const v3WebpropertyIdSchema = z
  .string()
  .refine(
    (id) => parseWebpropertyId(id) !== null,
    "expected a web property id hostname:port (e.g. example.com:443)",
  );
