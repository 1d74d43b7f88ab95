import { z } from "zod";
import { isoTimestampSchema } from "../formats";
import { documentIdSchema, domainSchema, ipv4Schema, v1IndexSchema, type V1Index } from "../indexes";
import { certificateDocumentSchema } from "./certificate";

// GET /api/v1/view/:index/:id. The spec does not show host and website documents, so their
// schemas hold only what search results and our origin rely on, and let everything else through.

/** `<port>/<protocol>`, e.g. `443/https`. */
export const portProtocolSchema = z
  .string()
  .regex(/^\d{1,5}\/[A-Za-z0-9_.-]+$/, "expected <port>/<protocol>");

export const v1LocationSchema = z.looseObject({
  continent: z.string().optional(),
  country: z.string().optional(),
  country_code: z.string().optional(),
  city: z.string().optional(),
  province: z.string().optional(),
  postal_code: z.string().optional(),
  timezone: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
});

export const v1AutonomousSystemSchema = z.looseObject({
  asn: z.number().int().min(0).optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  routed_prefix: z.string().optional(),
  country_code: z.string().optional(),
});

export const ipv4DocumentSchema = z.looseObject({
  ip: ipv4Schema,
  protocols: z.array(portProtocolSchema),
  location: v1LocationSchema.optional(),
  autonomous_system: v1AutonomousSystemSchema.optional(),
  updated_at: isoTimestampSchema.optional(),
});
export type Ipv4Document = z.infer<typeof ipv4DocumentSchema>;

export const websiteDocumentSchema = z.looseObject({
  domain: domainSchema,
  alexa_rank: z.number().int().min(1).optional(),
  protocols: z.array(portProtocolSchema).optional(),
  ports: z.array(z.number().int().min(0).max(65535)).optional(),
  updated_at: isoTimestampSchema.optional(),
});
export type WebsiteDocument = z.infer<typeof websiteDocumentSchema>;

export type V1Document = Ipv4Document | WebsiteDocument | z.infer<typeof certificateDocumentSchema>;

export function v1DocumentSchema(index: V1Index): z.ZodType<V1Document> {
  switch (index) {
    case "ipv4":
      return ipv4DocumentSchema;
    case "websites":
      return websiteDocumentSchema;
    case "certificates":
      return certificateDocumentSchema;
  }
}

/** `:index/:id`, with the id checked against its index's id kind. */
export const viewParamsSchema = z
  .object({ index: v1IndexSchema, id: z.string().min(1) })
  .superRefine(({ index, id }, ctx) => {
    const result = documentIdSchema(index).safeParse(id);
    if (!result.success) {
      ctx.addIssue({
        code: "custom",
        path: ["id"],
        message: result.error.issues[0]?.message ?? "invalid id",
      });
    }
  });
export type ViewParams = z.infer<typeof viewParamsSchema>;
