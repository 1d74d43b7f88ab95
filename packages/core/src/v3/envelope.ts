import { z } from "zod";

/**
 * Platform success bodies are `{"result": ...}` (the SDK's `components.ResponseEnvelope*`
 * models). The envelope stays open: the Platform may add members beside `result`.
 */
export function v3Envelope<T extends z.ZodType>(result: T) {
  return z.object({ result }).loose();
}
export type V3Envelope<T> = { result: T };

export function wrapV3<T>(result: T): V3Envelope<T> {
  return { result };
}

/**
 * An asset: the resource and its `extensions` (the SDK's `HostAsset`, `CertificateAsset`,
 * `WebpropertyAsset`, `HostTimelineEventAsset`: `{resource, extensions}`).
 */
export function v3Asset<T extends z.ZodType>(resource: T) {
  return z.object({ resource, extensions: z.record(z.string(), z.unknown()) }).loose();
}
export type V3Asset<T> = { resource: T; extensions: Record<string, unknown> };

export function assetOf<T>(resource: T): V3Asset<T> {
  return { resource, extensions: {} };
}
