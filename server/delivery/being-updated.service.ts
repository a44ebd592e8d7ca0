import { HttpError } from "../http/errors";

/** What an unpublished project's link answers an API client until it is published again (a page says it in its language). */
const BEING_UPDATED = "This gallery is being updated — please check back soon";

/**
 * Answered with 503 and Retry-After, not 200: the page is back at the same address soon, so
 * nothing (a browser, a proxy, a link checker) should take it as gone or keep this answer.
 */
const UPDATING_RETRY_SECONDS = 600;

/**
 * Anything behind the link a project keeps while unpublished (or publishing again): its page,
 * photos, ZIPs and favourites. The page and a ZIP opened in a browser answer it as the studio's page.
 */
export class BeingUpdatedError extends HttpError {
  /** `language`: the project's, so its page speaks as its gallery does; null: the studio's. */
  constructor(readonly language: string | null = null) {
    super(503, BEING_UPDATED, undefined, { "Retry-After": String(UPDATING_RETRY_SECONDS) });
  }
}
