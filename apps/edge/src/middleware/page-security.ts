import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../app-env";

/**
 * Headers of every dashboard and console response. The policy allows only our own stylesheet,
 * script and icon (no inline script or style at all: charts are SVG with presentation
 * attributes), forms that post back to us, and no framing. Referrer-Policy is same-origin, not
 * no-referrer, because with no-referrer browsers send `Origin: null` on form posts, and the
 * same-origin check of the forms needs the real origin.
 */
export function pageSecurityHeaders(): MiddlewareHandler<AppEnv> {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: "same-origin",
    xFrameOptions: "DENY",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
  });
  return async function pageSecurity(c, next) {
    await headers(c, next);
    // Pages show one person's figures and secrets: never cached (the assets set their own).
    if (!c.res.headers.has("cache-control")) c.res.headers.set("Cache-Control", "no-store");
  };
}
