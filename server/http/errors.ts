export type FieldErrors = Record<string, string>;

/** An error that maps to an HTTP answer `{statusCode, message, errors?}`. Thrown anywhere, answered by one middleware. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpError {
  constructor(message: string, errors?: FieldErrors) {
    super(400, message, errors);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = "Authentication required") {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = "Access denied") {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = "Not found") {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message = "File too large") {
    super(413, message);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = "Unsupported file type") {
    super(415, message);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, message = "Too many attempts, please try again later") {
    super(429, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** What every write that finds the server's disk full answers: uploads, thumbnails, any save on sqlite. */
export const DISK_FULL = "The server's disk is full. Free some space and try again.";

export class InsufficientStorageError extends HttpError {
  constructor() {
    super(507, DISK_FULL);
  }
}
