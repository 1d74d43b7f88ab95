import {
  V3_PROBLEM_MEDIA_TYPE,
  v3AuthenticationErrorSchema,
  v3ErrorMediaType,
  v3ProblemSchema,
} from "@scangate/core";
import type { z } from "zod";

/** A v3 success body of `schema` in the route's own media type (the SDK matches by it). */
export function v3Response<S extends z.ZodType>(schema: S, mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema } } } as const;
}

/**
 * Every error a v3 route answers: problem+json (core's v3 error table); the 401 in the JSON the
 * SDK reads as its `AuthenticationError` (`error`), with the problem members beside it.
 */
export const V3_ERRORS = {
  401: {
    description: "Missing or invalid personal access token",
    content: { [v3ErrorMediaType(401)]: { schema: v3AuthenticationErrorSchema } },
  },
  default: {
    description: "An error, as a problem document",
    content: { [V3_PROBLEM_MEDIA_TYPE]: { schema: v3ProblemSchema } },
  },
} as const;
