import { NONCE, secureHeaders } from "hono/secure-headers";
import { MAP_TILE_ORIGIN } from "../contract/map.constants";

/**
 * Secure headers for API and pages. Never applied to /parties/* (it would break the 101 upgrade).
 * Scripts: only our own origin; React Router's inline hydration script carries a per-response nonce.
 */
export const apiSecurityHeaders = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  strictTransportSecurity: "max-age=63072000; includeSubDomains",
  xFrameOptions: "DENY",
  referrerPolicy: "strict-origin-when-cross-origin",
  crossOriginResourcePolicy: "same-origin",
});

export const pageSecurityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Map tiles: exactly the host the maps request (a `*.` source does not match the bare host). No gravatar: the §7
    // fallback is an identicon drawn in the page (app/components/avatar.tsx), so no third party learns who is viewed.
    imgSrc: ["'self'", "data:", "blob:", MAP_TILE_ORIGIN],
    connectSrc: ["'self'", "ws:", "wss:"],
    fontSrc: ["'self'", "data:"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  strictTransportSecurity: "max-age=63072000; includeSubDomains",
  xFrameOptions: "DENY",
  referrerPolicy: "strict-origin-when-cross-origin",
  crossOriginEmbedderPolicy: false,
});
