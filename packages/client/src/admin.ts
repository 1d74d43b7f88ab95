import {
  adminCommentDeleteResultSchema,
  type AdminCommentDeleteResult,
  cachePurgeResultSchema,
  platformTokenRevokeResultSchema,
  platformTokenStatusSchema,
  platformTokenWithSecretSchema,
  tenantListSchema,
  tenantSchema,
  tenantWithSecretSchema,
  type PurgeableIndex,
  type CachePurgeResult,
  type PlatformTokenRevokeResult,
  type PlatformTokenStatus,
  type PlatformTokenWithSecret,
  type Tenant,
  type TenantCreateBody,
  type TenantList,
  type TenantPatchBody,
  type TenantWithSecret,
} from "@scangate/core";
import { createTransport, type ClientOptions } from "./client";
import type { WireSchema } from "./transport";

export interface AdminClientOptions extends Omit<ClientOptions, "apiId" | "apiSecret"> {
  /** The edge's ADMIN_TOKEN (sent as a bearer token). */
  adminToken: string;
}

type Signal = { signal?: AbortSignal };

/** DELETE answers vary (204, or a small JSON body); nothing in them is needed. */
const anyBody: WireSchema<unknown> = { safeParse: (data) => ({ success: true, data }) };

/** The edge's admin API (`/admin/...`): tenants, cache purges and comment removal. Not part of the Censys API. */
export function createAdminClient(options: AdminClientOptions) {
  const transport = createTransport(options, `Bearer ${options.adminToken}`);
  const tenantPath = (id: string) => `/admin/tenants/${encodeURIComponent(id)}`;

  return {
    tenants: {
      /** Creates a tenant; the answer holds its `api_secret`, shown only here and on rotation. */
      create: (body: TenantCreateBody, opts: Signal = {}): Promise<TenantWithSecret> =>
        transport.call({
          method: "POST",
          path: "/admin/tenants",
          body,
          schema: tenantWithSecretSchema,
          idempotent: false,
          signal: opts.signal,
        }),
      list: (opts: Signal = {}): Promise<TenantList> =>
        transport.call({
          method: "GET",
          path: "/admin/tenants",
          schema: tenantListSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      get: (id: string, opts: Signal = {}): Promise<Tenant> =>
        transport.call({
          method: "GET",
          path: tenantPath(id),
          schema: tenantSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      /** Changes fields; setting the same values twice is harmless, so it is retried. */
      update: (id: string, body: TenantPatchBody, opts: Signal = {}): Promise<Tenant> =>
        transport.call({
          method: "PATCH",
          path: tenantPath(id),
          body,
          schema: tenantSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      disable: (id: string, opts: Signal = {}): Promise<Tenant> =>
        transport.call({
          method: "PATCH",
          path: tenantPath(id),
          body: { disabled: true },
          schema: tenantSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      /** Issues a new secret; the old one keeps working for `graceSeconds` (default 0). */
      rotate: (id: string, opts: Signal & { graceSeconds?: number } = {}): Promise<TenantWithSecret> =>
        transport.call({
          method: "POST",
          path: `${tenantPath(id)}/rotate`,
          body: opts.graceSeconds === undefined ? {} : { grace_seconds: opts.graceSeconds },
          schema: tenantWithSecretSchema,
          idempotent: false,
          signal: opts.signal,
        }),
      /**
       * Issues the tenant's Platform (/v3) bearer token, or rotates it: the answer's `token` is
       * shown only here; a replaced token keeps working for `graceSeconds` (the edge's default:
       * an hour).
       */
      issuePlatformToken: (
        id: string,
        opts: Signal & { graceSeconds?: number } = {},
      ): Promise<PlatformTokenWithSecret> =>
        transport.call({
          method: "POST",
          path: `${tenantPath(id)}/platform-token`,
          body: opts.graceSeconds === undefined ? {} : { grace_seconds: opts.graceSeconds },
          schema: platformTokenWithSecretSchema,
          idempotent: false,
          signal: opts.signal,
        }),
      /** Whether the tenant holds a Platform token, and since when (never the token). */
      platformToken: (id: string, opts: Signal = {}): Promise<PlatformTokenStatus> =>
        transport.call({
          method: "GET",
          path: `${tenantPath(id)}/platform-token`,
          schema: platformTokenStatusSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      /** Revokes every Platform token of the tenant; revoking twice is harmless, so it is retried. */
      revokePlatformToken: (id: string, opts: Signal = {}): Promise<PlatformTokenRevokeResult> =>
        transport.call({
          method: "DELETE",
          path: `${tenantPath(id)}/platform-token`,
          schema: platformTokenRevokeResultSchema,
          idempotent: true,
          signal: opts.signal,
        }),
      delete: async (id: string, opts: Signal = {}): Promise<void> => {
        await transport.call({
          method: "DELETE",
          path: tenantPath(id),
          schema: anyBody,
          idempotent: false,
          signal: opts.signal,
        });
      },
    },
    cache: {
      /** Drops one cached document so the next read goes upstream. */
      purge: (index: PurgeableIndex, id: string, opts: Signal = {}): Promise<CachePurgeResult> =>
        transport.call({
          method: "DELETE",
          path: `/admin/cache/${encodeURIComponent(index)}/${encodeURIComponent(id)}`,
          schema: cachePurgeResultSchema,
          idempotent: true,
          signal: opts.signal,
        }),
    },
    comments: {
      /** Removes any tenant's comment (tenants change only their own). */
      delete: (id: string, opts: Signal = {}): Promise<AdminCommentDeleteResult> =>
        transport.call({
          method: "DELETE",
          path: `/admin/comments/${encodeURIComponent(id)}`,
          schema: adminCommentDeleteResultSchema,
          idempotent: false,
          signal: opts.signal,
        }),
    },
  };
}

export type ScangateAdminClient = ReturnType<typeof createAdminClient>;
