import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

/** Structured logs; anything that could hold a secret is redacted before it is written. `destination` lets tests read them. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
