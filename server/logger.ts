import pino, { type Logger } from "pino";

export type { Logger };

/** Structured logs; anything that could hold a secret is redacted before it is written. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "*.password",
        "*.token",
        "*.accessToken",
        "*.refreshToken",
        "*.credential",
        "password",
        "token",
      ],
      censor: "[redacted]",
    },
  });
}
