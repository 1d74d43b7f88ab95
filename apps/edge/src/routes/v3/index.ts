import type { PlatformRoute } from "./define";
import { platformForwardRoute } from "./passthrough";

/** Every route the edge serves under /v3, in the order the app registers them. */
export const PLATFORM_ROUTES: readonly PlatformRoute[] = [platformForwardRoute];
