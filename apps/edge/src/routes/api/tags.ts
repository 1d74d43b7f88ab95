import {
  ANNOTATED_ID_KEYS,
  ApiError,
  annotatedDocumentId,
  annotationCapError,
  certificateTagsResultSchema,
  pathText,
  hostTagsResultSchema,
  renderDocumentTags,
  renderTag,
  renderTaggedDocuments,
  tagCertificatesResultSchema,
  tagHostsResultSchema,
  tagSchema,
  tagsListResultSchema,
  tagWriteSchema,
  v2Envelope,
  wrapV2,
  type AnnotatedIndex,
  type AuditAction,
} from "@scangate/core";
import type { TagRow } from "../../db/schema";
import { type ApiContext, defineRoute, type ApiRoute, type RouteSpec } from "../../pipeline/define-route";
import { ALWAYS_FREE } from "../../pipeline/price";
import { parseJsonBody } from "../../http/json-body";
import { component } from "../../openapi/components";

// The team's tags (the v2 tag API), kept in the edge's D1 and never forwarded: a tag one tenant
// creates is seen, changed and used by every tenant. Free (no quota): nothing is asked upstream.
// Bounded by core's ANNOTATION_CAPS (a 409 names the cap reached); the lists have no paging.

/** A route of the team's tags or comments: free. */
export function annotationRoute(spec: Omit<RouteSpec, "price" | "cache" | "burst">): ApiRoute {
  return defineRoute({ ...spec, price: ALWAYS_FREE });
}

/** Records a tenant's change to the team's tags or comments in the edge's audit log. */
export function auditAnnotation(
  c: ApiContext,
  action: AuditAction,
  before: object | null,
  after: object | null,
): Promise<void> {
  const { tenant } = c.get("account");
  return c.get("services").audit.record({ actor: tenant.id, action, tenantId: tenant.id, before, after });
}

const TAG = component("TagResponse", v2Envelope(tagSchema));
const TAG_WRITE = component("TagWrite", tagWriteSchema);

/** The tag named by the path parameter `param`; 404 when there is none. */
async function existingTag(c: ApiContext, param: "id" | "tag_id"): Promise<TagRow> {
  const id = pathText(param, c.req.param(param) ?? "");
  const tag = await c.get("services").annotations.tag(id);
  if (!tag) throw new ApiError("not_found", `Tag ${id} not found.`);
  return tag;
}

function duplicateName(name: string): ApiError {
  return new ApiError("conflict", `A tag named ${JSON.stringify(name)} already exists.`);
}

function taggedDocumentsRoute(index: AnnotatedIndex): ApiRoute {
  const hosts = index === "hosts";
  return annotationRoute({
    method: "GET",
    path: `/api/v2/tags/:id/${index}`,
    operation: hosts ? "tag_hosts" : "tag_certificates",
    summary: hosts ? "The hosts carrying a tag" : "The certificates carrying a tag",
    ok: hosts
      ? component("TagHostsResponse", v2Envelope(tagHostsResultSchema))
      : component("TagCertificatesResponse", v2Envelope(tagCertificatesResultSchema)),
    handler: async (c) => {
      const tag = await existingTag(c, "id");
      const rows = await c.get("services").annotations.taggedDocuments(tag.id, index);
      return c.json(wrapV2(renderTaggedDocuments(index, rows)));
    },
  });
}

/** The routes of the tags on one host or certificate: list, put on, take off. */
function documentTagRoutes(index: AnnotatedIndex): ApiRoute[] {
  const param = ANNOTATED_ID_KEYS[index];
  const noun = index === "hosts" ? "host" : "certificate";
  const documentOf = (c: ApiContext) => annotatedDocumentId(index, c.req.param(param) ?? "");
  return [
    annotationRoute({
      method: "GET",
      path: `/api/v2/${index}/:${param}/tags`,
      operation: "document_tags",
      summary: `The team's tags on a ${noun}`,
      ok:
        index === "hosts"
          ? component("HostTagsResponse", v2Envelope(hostTagsResultSchema))
          : component("CertificateTagsResponse", v2Envelope(certificateTagsResultSchema)),
      handler: async (c) => {
        const document = documentOf(c);
        const tags = await c.get("services").annotations.documentTags(index, document);
        return c.json(wrapV2(renderDocumentTags(index, document, tags)));
      },
    }),
    annotationRoute({
      method: "PUT",
      path: `/api/v2/${index}/:${param}/tags/:tag_id`,
      operation: "document_tag_add",
      summary: `Put a team tag on a ${noun} (again: no change)`,
      ok: "empty",
      handler: async (c) => {
        const document = documentOf(c);
        const tag = await existingTag(c, "tag_id");
        const attached = await c
          .get("services")
          .annotations.attach(tag.id, index, document, c.get("account").tenant.id);
        if (!attached.ok) throw annotationCapError(attached.reason, "team");
        if (attached.changed)
          await auditAnnotation(c, "tag.attach", null, { tag_id: tag.id, index, document });
        return c.body(null, 204);
      },
    }),
    annotationRoute({
      method: "DELETE",
      path: `/api/v2/${index}/:${param}/tags/:tag_id`,
      operation: "document_tag_remove",
      summary: `Take a team tag off a ${noun} (404 when it is not on it)`,
      ok: "empty",
      handler: async (c) => {
        const document = documentOf(c);
        const tag = await existingTag(c, "tag_id");
        const detached = await c.get("services").annotations.detach(tag.id, index, document);
        if (!detached) throw new ApiError("not_found", `Tag ${tag.id} is not on ${noun} ${document}.`);
        await auditAnnotation(c, "tag.detach", { tag_id: tag.id, index, document }, null);
        return c.body(null, 204);
      },
    }),
  ];
}

export const TAG_ROUTES: readonly ApiRoute[] = [
  annotationRoute({
    method: "GET",
    path: "/api/v2/tags",
    operation: "tags_list",
    summary: "The team's tags (kept at the edge)",
    ok: component("TagsListResponse", v2Envelope(tagsListResultSchema)),
    handler: async (c) => {
      const tags = await c.get("services").annotations.listTags();
      return c.json(wrapV2({ tags: tags.map(renderTag) }));
    },
  }),
  annotationRoute({
    method: "POST",
    path: "/api/v2/tags",
    operation: "tag_create",
    summary: "Create a team tag (409 when the name is taken, ignoring case)",
    body: TAG_WRITE,
    ok: TAG,
    handler: async (c) => {
      const body = await parseJsonBody(c, tagWriteSchema);
      const created = await c
        .get("services")
        .annotations.createTag(
          { name: body.name, color: body.metadata?.color?.toLowerCase() },
          c.get("account").tenant.id,
        );
      if (!created.ok) {
        throw created.reason === "duplicate_name"
          ? duplicateName(body.name)
          : annotationCapError(created.reason, "team");
      }
      const tag = renderTag(created.tag);
      await auditAnnotation(c, "tag.create", null, tag);
      return c.json(wrapV2(tag));
    },
  }),
  annotationRoute({
    method: "GET",
    path: "/api/v2/tags/:id",
    operation: "tag_view",
    summary: "One team tag",
    ok: TAG,
    handler: async (c) => c.json(wrapV2(renderTag(await existingTag(c, "id")))),
  }),
  annotationRoute({
    method: "PUT",
    path: "/api/v2/tags/:id",
    operation: "tag_update",
    summary: "Rename or recolor a team tag (without metadata the color is kept)",
    body: TAG_WRITE,
    ok: TAG,
    handler: async (c) => {
      const before = await existingTag(c, "id");
      const body = await parseJsonBody(c, tagWriteSchema);
      const color = body.metadata ? (body.metadata.color?.toLowerCase() ?? null) : undefined;
      const updated = await c.get("services").annotations.updateTag(before.id, { name: body.name, color });
      if (!updated) throw new ApiError("not_found", `Tag ${before.id} not found.`);
      if (!updated.ok) throw duplicateName(body.name);
      const tag = renderTag(updated.tag);
      await auditAnnotation(c, "tag.update", renderTag(before), tag);
      return c.json(wrapV2(tag));
    },
  }),
  annotationRoute({
    method: "DELETE",
    path: "/api/v2/tags/:id",
    operation: "tag_delete",
    summary: "Delete a team tag (and take it off every document)",
    ok: "empty",
    handler: async (c) => {
      const id = pathText("id", c.req.param("id") ?? "");
      const deleted = await c.get("services").annotations.deleteTag(id);
      if (!deleted) throw new ApiError("not_found", `Tag ${id} not found.`);
      await auditAnnotation(c, "tag.delete", renderTag(deleted), null);
      // No body, as the public service's delete (the official client expects none).
      return c.body(null, 204);
    },
  }),
  taggedDocumentsRoute("hosts"),
  taggedDocumentsRoute("certificates"),
  ...documentTagRoutes("hosts"),
  ...documentTagRoutes("certificates"),
];
