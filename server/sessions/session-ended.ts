import { UnauthorizedError } from "../http/errors";

/** An access token of a sign-in that was ended (signed out from the sessions list, or replayed). */
export class SessionEndedError extends UnauthorizedError {
  constructor() {
    super("This session has been signed out");
  }
}
