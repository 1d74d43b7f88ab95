import {
  ApiError,
  assetOf,
  v3BulkQueryForm,
  v3CertificateAssetSchema,
  v3CertificateIdSchema,
  v3CertificateListInputSchema,
  v3CertificateListQuerySchema,
  v3RawCertificateSchema,
  V3_MEDIA_TYPES,
  wrapV3,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseV3, v3Json } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { certificatePem, v3Certificate } from "../../services/v3-certificate";
import { type BulkForm, readBulkInput } from "./bulk-input";
import { platformRoute } from "./operation";

const certificateIdParam = z.object({ certificate_id: v3CertificateIdSchema });
const isFingerprint = (id: string) => v3CertificateIdSchema.safeParse(id).success;

function certificateId(c: Context<AppEnv>): string {
  const { certificate_id } = parseV3("path", certificateIdParam, {
    certificate_id: c.req.param("certificate_id"),
  });
  return certificate_id.toLowerCase();
}

/** The v1 documents of the `certificate_ids` asked (in `form`) that the dataset holds, in the order asked. */
async function requestedCertificates(c: Context<AppEnv>, form: BulkForm): Promise<[string, unknown][]> {
  const { certificate_ids } = await readBulkInput(c, form, v3CertificateListInputSchema, {
    field: "certificate_ids",
    valid: isFingerprint,
    message: "not a SHA-256 fingerprint (64 hex digits)",
  });
  const wanted = [...new Set(certificate_ids.map((id) => id.toLowerCase()))];
  const found = await c.var.services.dataset.readCertificates(wanted);
  const documents = wanted.flatMap((fp): [string, unknown][] => (found.has(fp) ? [[fp, found.get(fp)]] : []));
  c.set("creditAssets", documents.length);
  return documents;
}

async function oneCertificate(c: Context<AppEnv>, fingerprint: string): Promise<unknown> {
  const found = await c.var.services.dataset.readCertificates([fingerprint]);
  if (!found.has(fingerprint)) throw new ApiError("not_found", `Certificate ${fingerprint} not found.`);
  return found.get(fingerprint);
}

/** GET /v3/global/asset/certificate/{certificate_id}: one certificate by SHA-256 fingerprint. */
export const getCertificate = platformRoute(
  "globalDataGetCertificate",
  { request: { params: certificateIdParam }, result: v3CertificateAssetSchema },
  async (c) => {
    const document = await oneCertificate(c, certificateId(c));
    return v3Json(c, wrapV3(assetOf(v3Certificate(document))), V3_MEDIA_TYPES.certificate);
  },
);

/** GET /v3/global/asset/certificate/{certificate_id}/raw: the certificate as a PEM file. */
export const getCertificateRaw = platformRoute(
  "globalDataGetCertificateRaw",
  {
    request: { params: certificateIdParam },
    success: {
      description: "The certificate (PEM)",
      content: { [V3_MEDIA_TYPES.pem]: { schema: z.string() } },
    },
  },
  async (c) => {
    const fingerprint = certificateId(c);
    const pem = certificatePem(await oneCertificate(c, fingerprint));
    if (pem === null) throw new ApiError("not_found", `Certificate ${fingerprint} has no raw form.`);
    return c.body(pem, 200, { "Content-Type": V3_MEDIA_TYPES.pem });
  },
);

/** Several certificates (`certificate_ids`, in `form`), those found in the order asked; unknown ones cost nothing. */
async function answerCertificates(c: Context<AppEnv>, form: BulkForm): Promise<Response> {
  const documents = await requestedCertificates(c, form);
  const assets = documents.map(([, document]) => assetOf(v3Certificate(document)));
  return v3Json(c, wrapV3(assets), V3_MEDIA_TYPES.certificate);
}

const certificatesResult = z.array(v3CertificateAssetSchema);

/** POST /v3/global/asset/certificate: several certificates, the ids in the JSON body. */
export const getCertificates = platformRoute(
  "globalDataGetCertificates",
  { request: { body: jsonBody(v3CertificateListInputSchema) }, result: certificatesResult },
  (c) => answerCertificates(c, "body"),
);

/** GET /v3/global/asset/certificate?certificate_ids=a,b: the same, as the SDKs before 0.6 ask. */
export const getCertificatesByQuery = platformRoute(
  v3BulkQueryForm("globalDataGetCertificates"),
  { request: { query: v3CertificateListQuerySchema }, result: certificatesResult },
  (c) => answerCertificates(c, "query"),
);

/** POST /v3/global/asset/certificate/raw: several certificates as PEM, `{certificate_id, pem}` each. */
export const getCertificatesRaw = platformRoute(
  "globalDataGetCertificatesRaw",
  { request: { body: jsonBody(v3CertificateListInputSchema) }, result: z.array(v3RawCertificateSchema) },
  async (c) => {
    const documents = await requestedCertificates(c, "body");
    const raw = documents.flatMap(([certificate_id, document]) => {
      const pem = certificatePem(document);
      return pem === null ? [] : [{ certificate_id, pem }];
    });
    c.set("creditAssets", raw.length);
    return v3Json(c, wrapV3(raw), V3_MEDIA_TYPES.json);
  },
);

/** The fixed `raw` path before `{certificate_id}`, so a POST to it is not taken for an id. */
export const v3CertificateRoutes = [
  getCertificatesRaw,
  getCertificates,
  getCertificatesByQuery,
  getCertificateRaw,
  getCertificate,
];
