import { z } from "zod";

/** Times in the admin API are RFC 3339 strings in UTC. */
export const adminTimeSchema = z.iso.datetime();
