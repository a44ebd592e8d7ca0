import helmet from "helmet";
import type { Request, RequestHandler, Response } from "express";

/** Where Google Identity Services loads its script, button frame, styles and token calls from. */
const GOOGLE_IDENTITY = "https://accounts.google.com/gsi/";

const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

export interface SecurityOptions {
  googleSignIn?: boolean;
  /** PUBLIC_URL: a request for its host is taken to have come over its scheme (a TLS proxy in front). */
  publicUrl?: string;
  /** HSTS_INCLUDE_SUBDOMAINS: the studio vouches that every subdomain of its name serves HTTPS. */
  hstsIncludeSubDomains?: boolean;
}

/** How the browser reached this response, as the security headers decided it (cookies follow the same). */
type Arrival = "https" | "loopback" | "http";

const LOOPBACK_HOST = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * HTTPS when Express says so (`req.secure`, which believes X-Forwarded-Proto under TRUST_PROXY),
 * or when the request names the host of an https PUBLIC_URL (a TLS proxy whose hop is not
 * trusted). The same server reached by a LAN name over plain HTTP is not: a browser there must
 * never be told to upgrade to an HTTPS nobody serves.
 */
function arrivalOf(req: Request, publicUrl: URL | undefined): Arrival {
  const hostname = req.hostname?.toLowerCase();
  if (req.secure || (publicUrl?.protocol === "https:" && hostname === publicUrl.hostname)) return "https";
  // Browsers treat loopback as a secure context even over plain HTTP.
  return hostname && LOOPBACK_HOST.test(hostname) ? "loopback" : "http";
}

/** Whether the request came over HTTPS as the security headers judged it: cookies are then `Secure`. */
export function arrivedOverHttps(req: Request, res: Response): boolean {
  const arrival = res.locals.arrival as Arrival | undefined;
  return arrival ? arrival === "https" : req.secure;
}

function headersFor(arrival: Arrival, options: SecurityOptions): RequestHandler {
  const google = options.googleSignIn ? [GOOGLE_IDENTITY] : [];
  const https = arrival === "https";
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
        // Over plain HTTP it would send every script, style, image and call to an HTTPS nobody serves.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: options.hstsIncludeSubDomains ?? false }
      : false,
    // Browsers honour these two only in a secure context and log an error or a warning for them on
    // every page anywhere else. The Google sign-in popup reports back to its opener, which
    // same-origin isolation would cut off.
    crossOriginOpenerPolicy:
      arrival === "http" ? false : { policy: options.googleSignIn ? "same-origin-allow-popups" : "same-origin" },
    originAgentCluster: arrival !== "http",
    crossOriginEmbedderPolicy: false,
    // Cross-Origin-Resource-Policy (same-origin) means the same under either scheme.
  });
}

/**
 * Security headers fitted to how the request arrived, with a Content-Security-Policy the built web
 * app runs under. With Google sign-in enabled, the policy also lets Google's sign-in script and popup work.
 */
export function securityHeaders(options: SecurityOptions = {}): RequestHandler {
  const publicUrl = options.publicUrl ? new URL(options.publicUrl) : undefined;
  const byArrival: Record<Arrival, RequestHandler> = {
    https: headersFor("https", options),
    loopback: headersFor("loopback", options),
    http: headersFor("http", options),
  };
  return (req, res, next) => {
    const arrival = arrivalOf(req, publicUrl);
    res.locals.arrival = arrival;
    byArrival[arrival](req, res, next);
  };
}
