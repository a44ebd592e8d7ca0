import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { RefusedAddressError, resolveAllowed, type CheckedAddress, type Resolve } from "./address-guard";

export interface SendOutcome {
  /** The receiver's status, or null when none came. */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** The first 200 characters of the answer, or what went wrong. */
  response: string;
}

const RESPONSE_CHARS = 200;

/** A lookup that answers only the address already checked: the connection cannot be steered elsewhere by DNS. */
function pinnedLookup(checked: CheckedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [checked]);
    } else {
      callback(null, checked.address, checked.family);
    }
  };
}

function post(
  url: URL,
  checked: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      lookup: pinnedLookup(checked),
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.once("error", reject);
    request.once("response", (res) => {
      // Redirects are not followed: a 3xx is the answer, and a failure.
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (text.length < RESPONSE_CHARS) text += chunk;
        else res.destroy();
      });
      res.once("error", () => resolve({ status: res.statusCode ?? 0, text }));
      res.once("close", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    request.end(body);
  });
}

/**
 * One signed POST: the host resolved now and checked (SSRF), the connection pinned to the checked
 * address, the whole exchange cut at `timeoutMs`. Never throws: what went wrong is the outcome.
 * `resolve` (tests): how names are resolved, the system's resolver when absent; it is asked once.
 */
export async function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number; resolve?: Resolve },
): Promise<SendOutcome> {
  const started = Date.now();
  const outcome = (status: number | null, response: string): SendOutcome => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    durationMs: Date.now() - started,
    response: response.slice(0, RESPONSE_CHARS),
  });
  try {
    const url = new URL(target);
    const checked = await resolveAllowed(url.hostname, options.allowPrivate, options.resolve);
    const { status, text } = await post(url, checked, headers, body, options.timeoutMs);
    return outcome(status, text);
  } catch (err) {
    if (err instanceof RefusedAddressError) return outcome(null, err.message);
    const e = err as NodeJS.ErrnoException;
    if (e.name === "TimeoutError" || e.name === "AbortError")
      return outcome(null, `no answer within ${options.timeoutMs} ms`);
    return outcome(null, `could not send: ${e.code ?? e.message}`);
  }
}
