import { createRoute } from "@hono/zod-openapi";
import {
  ANNOTATED_ID_KEYS,
  ApiError,
  annotatedDocumentId,
  annotationCapError,
  certificateTagsResultSchema,
  hostTagsResultSchema,
  pathText,
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
  type StoredTag,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseInput, readJsonBody } from "../../http/validation";
import { defineRoute, jsonBody, jsonResponse, V2_ERRORS, type OriginRoute } from "../../routing";

// The v2 tag API over the calling account's own tags (another account's are not found).
// Free, like the other annotation routes: cost 0 still records the login time. Bounded by
// core's ANNOTATION_CAPS per account (a 409 names the cap reached); the lists have no paging.

const tagResponse = jsonResponse(v2Envelope(tagSchema), "The tag");
const noContent = { description: "Done (no body)" } as const;

/** The tag named by the path parameter `param`; 404 when the account has none of that id. */
async function existingTag(c: Context<AppEnv>, param: "id" | "tag_id"): Promise<StoredTag> {
  const id = pathText(param, c.req.param(param) ?? "");
  const tag = await c.var.services.annotations.tag(c.var.account.api_id, id);
  if (!tag) throw new ApiError("not_found", `Tag ${id} not found.`);
  return tag;
}

const duplicateName = (name: string) =>
  new ApiError("conflict", `A tag named ${JSON.stringify(name)} already exists.`);

export const tagsList = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/tags",
    responses: { 200: jsonResponse(v2Envelope(tagsListResultSchema), "The account's tags"), ...V2_ERRORS },
  }),
  { operation: "tags_list", cost: 0 },
  async (c) => {
    const tags = await c.var.services.annotations.listTags(c.var.account.api_id);
    return c.json(wrapV2({ tags: tags.map(renderTag) }));
  },
);

export const tagCreate = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v2/tags",
    request: { body: jsonBody(tagWriteSchema) },
    responses: { 200: tagResponse, ...V2_ERRORS },
  }),
  { operation: "tag_create", cost: 0 },
  async (c) => {
    const body = parseInput(tagWriteSchema, await readJsonBody(c));
    const { services, account } = c.var;
    const created = await services.annotations.createTag(
      account.api_id,
      { name: body.name, color: body.metadata?.color?.toLowerCase() },
      services.clock.now(),
    );
    if (!created.ok) {
      throw created.reason === "duplicate_name"
        ? duplicateName(body.name)
        : annotationCapError(created.reason, "account");
    }
    return c.json(wrapV2(renderTag(created.tag)));
  },
);

const tagParams = z.object({ id: z.string() });

export const tagView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/tags/{id}",
    request: { params: tagParams },
    responses: { 200: tagResponse, ...V2_ERRORS },
  }),
  { operation: "tag_view", cost: 0 },
  async (c) => c.json(wrapV2(renderTag(await existingTag(c, "id")))),
);

export const tagUpdate = defineRoute(
  createRoute({
    method: "put",
    path: "/api/v2/tags/{id}",
    request: { params: tagParams, body: jsonBody(tagWriteSchema) },
    responses: { 200: tagResponse, ...V2_ERRORS },
  }),
  { operation: "tag_update", cost: 0 },
  async (c) => {
    const before = await existingTag(c, "id");
    const body = parseInput(tagWriteSchema, await readJsonBody(c));
    const color = body.metadata ? (body.metadata.color?.toLowerCase() ?? null) : undefined;
    const { services, account } = c.var;
    const updated = await services.annotations.updateTag(
      account.api_id,
      before.id,
      { name: body.name, color },
      services.clock.now(),
    );
    if (!updated) throw new ApiError("not_found", `Tag ${before.id} not found.`);
    if (!updated.ok) throw duplicateName(body.name);
    return c.json(wrapV2(renderTag(updated.tag)));
  },
);

export const tagDelete = defineRoute(
  createRoute({
    method: "delete",
    path: "/api/v2/tags/{id}",
    request: { params: tagParams },
    responses: { 204: noContent, ...V2_ERRORS },
  }),
  { operation: "tag_delete", cost: 0 },
  async (c) => {
    const id = pathText("id", c.req.param("id"));
    const deleted = await c.var.services.annotations.deleteTag(c.var.account.api_id, id);
    if (!deleted) throw new ApiError("not_found", `Tag ${id} not found.`);
    // No body, as the public service's delete (the official client expects none).
    return c.body(null, 204);
  },
);

function taggedDocuments(index: AnnotatedIndex): OriginRoute {
  const hosts = index === "hosts";
  return defineRoute(
    createRoute({
      method: "get",
      path: `/api/v2/tags/{id}/${index}`,
      request: { params: tagParams },
      responses: {
        200: hosts
          ? jsonResponse(v2Envelope(tagHostsResultSchema), "The hosts carrying the tag")
          : jsonResponse(v2Envelope(tagCertificatesResultSchema), "The certificates carrying the tag"),
        ...V2_ERRORS,
      },
    }),
    { operation: hosts ? "tag_hosts" : "tag_certificates", cost: 0 },
    async (c) => {
      const tag = await existingTag(c, "id");
      const rows = await c.var.services.annotations.taggedDocuments(tag.id, index);
      return c.json(wrapV2(renderTaggedDocuments(index, rows)));
    },
  );
}

/** The tags on one host or certificate: list, put on (again: no change), take off. */
function documentTags(index: AnnotatedIndex): OriginRoute[] {
  const param = ANNOTATED_ID_KEYS[index];
  const noun = index === "hosts" ? "host" : "certificate";
  const params = z.object({ [param]: z.string() });
  const tagParamsOf = z.object({ [param]: z.string(), tag_id: z.string() });
  const documentOf = (c: Context<AppEnv>) => annotatedDocumentId(index, c.req.param(param) ?? "");
  return [
    defineRoute(
      createRoute({
        method: "get",
        path: `/api/v2/${index}/{${param}}/tags`,
        request: { params },
        responses: {
          200: jsonResponse(
            v2Envelope(index === "hosts" ? hostTagsResultSchema : certificateTagsResultSchema),
            `The account's tags on the ${noun}`,
          ),
          ...V2_ERRORS,
        },
      }),
      { operation: "document_tags", cost: 0 },
      async (c) => {
        const document = documentOf(c);
        const tags = await c.var.services.annotations.documentTags(c.var.account.api_id, index, document);
        return c.json(wrapV2(renderDocumentTags(index, document, tags)));
      },
    ),
    defineRoute(
      createRoute({
        method: "put",
        path: `/api/v2/${index}/{${param}}/tags/{tag_id}`,
        request: { params: tagParamsOf },
        responses: { 204: noContent, ...V2_ERRORS },
      }),
      { operation: "document_tag_add", cost: 0 },
      async (c) => {
        const document = documentOf(c);
        const tag = await existingTag(c, "tag_id");
        const { services, account } = c.var;
        const attached = await services.annotations.attach(
          account.api_id,
          tag.id,
          index,
          document,
          services.clock.now(),
        );
        if (!attached.ok) throw annotationCapError(attached.reason, "account");
        return c.body(null, 204);
      },
    ),
    defineRoute(
      createRoute({
        method: "delete",
        path: `/api/v2/${index}/{${param}}/tags/{tag_id}`,
        request: { params: tagParamsOf },
        responses: { 204: noContent, ...V2_ERRORS },
      }),
      { operation: "document_tag_remove", cost: 0 },
      async (c) => {
        const document = documentOf(c);
        const tag = await existingTag(c, "tag_id");
        if (!(await c.var.services.annotations.detach(tag.id, index, document))) {
          throw new ApiError("not_found", `Tag ${tag.id} is not on ${noun} ${document}.`);
        }
        return c.body(null, 204);
      },
    ),
  ];
}

export const tagRoutes: OriginRoute[] = [
  tagsList,
  tagCreate,
  tagView,
  tagUpdate,
  tagDelete,
  taggedDocuments("hosts"),
  taggedDocuments("certificates"),
  ...documentTags("hosts"),
  ...documentTags("certificates"),
];
