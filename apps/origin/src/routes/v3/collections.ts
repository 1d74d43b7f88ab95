import {
  ApiError,
  v3CollectionEventsQuerySchema,
  v3CollectionEventsSchema,
  v3CollectionInputSchema,
  v3CollectionListQuerySchema,
  v3CollectionListSchema,
  v3CollectionSchema,
  v3SearchAggregateInputSchema,
  v3SearchAggregateResponseSchema,
  v3SearchQueryInputSchema,
  v3SearchQueryResponseSchema,
  V3_COLLECTIONS_MAX,
  type V3CollectionInput,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import {
  collectionOf,
  type CollectionRecord,
  type CollectionWrite,
  type Evaluation,
} from "../../services/v3-collections";
import { nextPageToken, pageRequest } from "../../services/v3-paging";
import { compileQuery, registriesOf, runAggregate, runSearch } from "./cenql";
import { pathParam, platformRoute } from "./operation";

/**
 * Collections (`/v3/collections`): an organization's saved CenQL queries, the assets each
 * holds, the events of assets entering and leaving it, and search and aggregate within it
 * (services/v3-collections.ts). Another organization's collection is not found.
 */

const collectionParam = z.object({ collection_uid: z.string() });

/** The assets the query matches now (the query compiled first: a bad one is a 400 naming it). */
async function evaluate(c: Context<AppEnv>, query: string): Promise<Evaluation> {
  const { resource, where } = compileQuery(c, query, await registriesOf(c));
  return c.var.services.platform.evaluateCollection(resource, where);
}

/** The organization's collection the path names, as stored. */
async function ownCollection(c: Context<AppEnv>): Promise<CollectionRecord> {
  const id = pathParam(c, "collection_uid");
  const collection = await c.var.services.platform.readCollection(
    c.var.platform.organization.organizationId,
    id,
  );
  if (!collection) throw new ApiError("not_found", `Collection ${JSON.stringify(id)} not found.`);
  return collection;
}

/** Whether the collection's assets were evaluated against another dataset than the one held. */
async function stale(c: Context<AppEnv>, collection: CollectionRecord): Promise<boolean> {
  return (
    collection.status !== "archived" && collection.dataset !== (await c.var.services.platform.heldDataset())
  );
}

/**
 * The organization's collection, its assets evaluated against the dataset held now (a reseed
 * changes what its query matches: the change is recorded as events). Every refusal of the
 * routes that read it comes before, so a refused request changes nothing.
 */
async function currentCollection(c: Context<AppEnv>): Promise<CollectionRecord> {
  const collection = await ownCollection(c);
  if (!(await stale(c, collection))) return collection;
  return c.var.services.platform.refreshCollection(
    collection,
    await evaluate(c, collection.query),
    c.var.services.clock.now(),
  );
}

async function shaped(c: Context<AppEnv>, collection: CollectionRecord) {
  const recent = await c.var.services.platform.recentChanges([collection.id], c.var.services.clock.now());
  return collectionOf(collection, recent.get(collection.id) ?? { added: 0, removed: 0 });
}

function written(write: CollectionWrite, name: string): CollectionRecord {
  if (write.ok) return write.collection;
  if (write.reason === "duplicate_name")
    throw new ApiError("conflict", `A collection named ${JSON.stringify(name)} exists.`, {
      errors: [{ location: "body.name", message: "a collection of this name exists", value: name }],
    });
  if (write.reason === "too_many")
    throw new ApiError(
      "conflict",
      `The organization has ${V3_COLLECTIONS_MAX} collections, the most it keeps.`,
    );
  throw new ApiError("not_found", "Collection not found.");
}

const fields = (input: V3CollectionInput) => ({
  name: input.name.trim(),
  description: input.description ?? "",
  query: input.query,
});

export const createCollection = platformRoute(
  "collectionsCreate",
  { request: { body: jsonBody(v3CollectionInputSchema) }, result: v3CollectionSchema },
  async (c) => {
    const input = fields(await v3Body(c, v3CollectionInputSchema));
    const evaluation = await evaluate(c, input.query);
    const { platform, clock } = c.var.services;
    const write = await platform.createCollection(
      {
        organizationId: c.var.platform.organization.organizationId,
        createdBy: c.var.platform.account.user_id,
        ...input,
      },
      evaluation,
      clock.now(),
    );
    return { result: await shaped(c, written(write, input.name)) };
  },
);

export const listCollections = platformRoute(
  "collectionsList",
  { request: { query: v3CollectionListQuerySchema }, result: v3CollectionListSchema },
  async (c) => {
    const query = v3Query(c, v3CollectionListQuerySchema);
    const { platform, cursors, clock } = c.var.services;
    const page = await pageRequest(
      cursors,
      `collections ${JSON.stringify(query.collection_statuses ?? [])}`,
      query,
    );
    const { collections, total } = await platform.listCollections(
      c.var.platform.organization.organizationId,
      query.collection_statuses,
      page.offset,
      page.size,
    );
    const recent = await platform.recentChanges(
      collections.map((col) => col.id),
      clock.now(),
    );
    return {
      result: {
        collections: collections.map((col) =>
          collectionOf(col, recent.get(col.id) ?? { added: 0, removed: 0 }),
        ),
        next_page_token: await nextPageToken(cursors, page, total),
      },
    };
  },
);

export const getCollection = platformRoute(
  "collectionsGet",
  { request: { params: collectionParam }, result: v3CollectionSchema },
  async (c) => ({ result: await shaped(c, await currentCollection(c)) }),
);

export const updateCollection = platformRoute(
  "collectionsUpdate",
  {
    request: { params: collectionParam, body: jsonBody(v3CollectionInputSchema) },
    result: v3CollectionSchema,
  },
  async (c) => {
    const input = fields(await v3Body(c, v3CollectionInputSchema));
    const collection = await ownCollection(c);
    const evaluation =
      input.query !== collection.query || (await stale(c, collection))
        ? await evaluate(c, input.query)
        : null;
    const write = await c.var.services.platform.updateCollection(
      collection,
      input,
      evaluation,
      c.var.services.clock.now(),
    );
    return { result: await shaped(c, written(write, input.name)) };
  },
);

export const deleteCollection = platformRoute(
  "collectionsDelete",
  { request: { params: collectionParam } },
  async (c) => {
    const id = pathParam(c, "collection_uid");
    const deleted = await c.var.services.platform.deleteCollection(
      c.var.platform.organization.organizationId,
      id,
    );
    if (!deleted) throw new ApiError("not_found", `Collection ${JSON.stringify(id)} not found.`);
    return {};
  },
);

export const collectionEvents = platformRoute(
  "collectionsListEvents",
  {
    request: { params: collectionParam, query: v3CollectionEventsQuerySchema },
    result: v3CollectionEventsSchema,
  },
  async (c) => {
    const query = v3Query(c, v3CollectionEventsQuerySchema);
    const { platform, cursors } = c.var.services;
    const { page_size: _size, page_token: _token, ...filters } = query;
    const id = pathParam(c, "collection_uid");
    const page = await pageRequest(cursors, `collection events ${id} ${JSON.stringify(filters)}`, query);
    const collection = await currentCollection(c);
    const { events, total } = await platform.listCollectionEvents(
      collection.id,
      {
        changeTypes: query.change_types,
        assetChangeTypes: query.asset_change_types,
        statusChangeTypes: query.status_change_types,
        from: query.start_time === undefined ? undefined : Date.parse(query.start_time),
        to: query.end_time === undefined ? undefined : Date.parse(query.end_time),
      },
      page.offset,
      page.size,
    );
    return { result: { events, next_page: await nextPageToken(cursors, page, total) } };
  },
);

export const collectionSearch = platformRoute(
  "collectionsSearch",
  {
    request: { params: collectionParam, body: jsonBody(v3SearchQueryInputSchema) },
    result: v3SearchQueryResponseSchema,
  },
  async (c) => {
    const input = await v3Body(c, v3SearchQueryInputSchema);
    const collection = await ownCollection(c);
    const result = await runSearch(c, input, { id: collection.id, query: collection.query });
    await currentCollection(c);
    return { result };
  },
);

export const collectionAggregate = platformRoute(
  "collectionsAggregate",
  {
    request: { params: collectionParam, body: jsonBody(v3SearchAggregateInputSchema) },
    result: v3SearchAggregateResponseSchema,
  },
  async (c) => {
    const input = await v3Body(c, v3SearchAggregateInputSchema);
    const collection = await ownCollection(c);
    const result = await runAggregate(c, input, { id: collection.id, query: collection.query });
    await currentCollection(c);
    return { result };
  },
);

export const v3CollectionRoutes = [
  createCollection,
  listCollections,
  getCollection,
  updateCollection,
  deleteCollection,
  collectionEvents,
  collectionSearch,
  collectionAggregate,
];
