import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { isBeingUpdated } from "./delivery.repository";
import { DELIVERY_TOKEN } from "./delivery.service";

/** What an unpublished project's link says until it is published again. */
export const BEING_UPDATED = "This gallery is being updated — please check back soon";
export const UPDATING_TEXT = "The studio is making changes to these photos. This link stays the same.";

/**
 * Answered with 503 and Retry-After, not 200: the page is back at the same address soon, so
 * nothing (a browser, a proxy, a link checker) should take it as gone or keep this answer.
 */
const UPDATING_RETRY_SECONDS = 600;
export const updatingHeaders = () => ({ "Retry-After": String(UPDATING_RETRY_SECONDS) });

/** Whether the token is the link a project keeps while unpublished (or publishing again). */
export async function linkBeingUpdated(ctx: AppContext, token: string): Promise<boolean> {
  return DELIVERY_TOKEN.test(token) && (await isBeingUpdated(ctx.db, token));
}

/** The JSON routes' answer for such a link. */
export const beingUpdatedError = () => new HttpError(503, BEING_UPDATED, undefined, updatingHeaders());
