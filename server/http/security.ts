import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { TLSSocket } from "node:tls";
import helmet from "helmet";
import type { Request, RequestHandler, Response } from "express";
import { recordedHeaders } from "./plain-answers";

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
function arrivalOf(secure: boolean, host: string | undefined, publicUrl: URL | undefined): Arrival {
  const hostname = host?.toLowerCase();
  if (secure || (publicUrl?.protocol === "https:" && hostname === publicUrl.hostname)) return "https";
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
  const byArrival = recordedByArrival(options);
  return (req, res, next) => {
    const arrival = arrivalOf(req.secure, req.hostname, publicUrl);
    res.locals.arrival = arrival;
    for (const [name, value] of Object.entries(byArrival[arrival])) res.setHeader(name, value!);
    next();
  };
}

/**
 * Helmet's headers for each kind of arrival, recorded once, so that Express's answers and the
 * delivery files (answered without Express) carry the very same headers from one description.
 */
function recordedByArrival(options: SecurityOptions): Record<Arrival, Readonly<OutgoingHttpHeaders>> {
  return {
    https: recordedHeaders(headersFor("https", options)),
    loopback: recordedHeaders(headersFor("loopback", options)),
    http: recordedHeaders(headersFor("http", options)),
  };
}

/** Express's `trust proxy fn`: whether the hop at `address` (the `i`th from the socket) is believed. */
export type TrustProxy = (address: string | undefined, i: number) => boolean;

/** The first of a header's comma-separated values, as Express reads X-Forwarded-Proto and -Host. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(",")[0].trim() || undefined;
}

/** `req.secure` and `req.hostname` as Express works them out, for a request answered without it. */
function arrivalFacts(req: IncomingMessage, trust: TrustProxy): { secure: boolean; hostname?: string } {
  const encrypted = Boolean((req.socket as TLSSocket).encrypted);
  const trusted = trust(req.socket.remoteAddress, 0);
  const proto = (trusted && firstValue(req.headers["x-forwarded-proto"])) || (encrypted ? "https" : "http");
  const host = (trusted && firstValue(req.headers["x-forwarded-host"])) || req.headers.host;
  if (!host) return { secure: proto === "https" };
  const portAt = host.indexOf(":", host.startsWith("[") ? host.indexOf("]") + 1 : 0);
  return { secure: proto === "https", hostname: portAt < 0 ? host : host.slice(0, portAt) };
}

/** The same headers as `securityHeaders`, for answers given without Express (the delivery files). */
export function recordedSecurityHeaders(
  options: SecurityOptions,
  trust: TrustProxy,
): (req: IncomingMessage) => Readonly<OutgoingHttpHeaders> {
  const publicUrl = options.publicUrl ? new URL(options.publicUrl) : undefined;
  const byArrival = recordedByArrival(options);
  return (req) => {
    const { secure, hostname } = arrivalFacts(req, trust);
    return byArrival[arrivalOf(secure, hostname, publicUrl)];
  };
}
