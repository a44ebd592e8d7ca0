import helmet from "helmet";
import type { RequestHandler } from "express";

/** Where Google Identity Services loads its script, button frame, styles and token calls from. */
const GOOGLE_IDENTITY = "https://accounts.google.com/gsi/";

/**
 * Security headers, with a Content-Security-Policy the built web app runs under.
 * With Google sign-in enabled, the policy also lets Google's sign-in script and popup work.
 */
export function securityHeaders(options: { googleSignIn?: boolean } = {}): RequestHandler {
  const google = options.googleSignIn ? [GOOGLE_IDENTITY] : [];
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...google],
        // Mantine 5 styles through emotion, which injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'", ...google],
        imgSrc: ["'self'", "data:", "blob:"],
        // 'self' covers same-origin WebSockets (/events) too; no other host is reachable from a script.
        connectSrc: ["'self'", ...google],
        ...(options.googleSignIn ? { frameSrc: [GOOGLE_IDENTITY] } : {}),
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    // The Google sign-in popup reports back to its opener, which same-origin isolation would cut off.
    crossOriginOpenerPolicy: options.googleSignIn ? { policy: "same-origin-allow-popups" } : { policy: "same-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
