import path from "node:path";
import { z } from "zod";

const flag = (fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["1", "true", "yes"].includes(v)));

const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const optionalUrl = optionalText.refine((v) => v === undefined || URL.canParse(v), "must be an absolute URL");

/** `s3://bucket` or `s3://bucket/some/prefix`; a bucket name as S3 allows one. */
const STORAGE_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** The S3 secret, kept out of every log line and JSON a config might end up in. */
class S3Credentials {
  constructor(
    readonly accessKeyId: string,
    readonly secretAccessKey: string,
  ) {}
  toJSON() {
    return { accessKeyId: this.accessKeyId, secretAccessKey: "[hidden]" };
  }
}

function storageOf(env: z.infer<typeof envSchema>) {
  const match = env.STORAGE_URL ? STORAGE_URL.exec(env.STORAGE_URL) : null;
  if (!match) return { kind: "disk" as const };
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3" as const,
    bucket: match[1],
    /** Every key starts with this: empty, or a path ending in `/`. */
    prefix: prefix ? `${prefix}/` : "",
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    /** Unset: the AWS SDK's own chain (environment, profile, instance role). */
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? new S3Credentials(env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY)
        : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    /** Seconds a presigned download link lives; 0: downloads are streamed through Photodrop. */
    presignedDownloadSeconds: env.S3_PRESIGNED_DOWNLOADS ? env.S3_PRESIGNED_SECONDS : 0,
  };
}

export type StorageConfig = ReturnType<typeof storageOf>;

const envSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: optionalText.transform((v) => v ?? "127.0.0.1"),
  DATABASE_URL: optionalText.transform((v) => v ?? "./photodrop.sqlite3"),
  DATABASE_POOL_MAX: int(10, 1, 1000),
  UPLOADS_DIR: optionalText.transform((v) => path.resolve(v ?? "./uploads")),
  PUBLISHED_DIR: optionalText.transform((v) => path.resolve(v ?? "./published")),
  STORAGE_URL: optionalText.refine(
    (v) => v === undefined || STORAGE_URL.test(v),
    "must be s3://<bucket> or s3://<bucket>/<prefix> (unset: the folders UPLOADS_DIR and PUBLISHED_DIR)",
  ),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: optionalText.transform((v) => v ?? "us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  S3_FORCE_PATH_STYLE: flag(false),
  S3_PRESIGNED_DOWNLOADS: flag(false),
  S3_PRESIGNED_SECONDS: int(300, 10, 3600),
  MAX_UPLOAD_BYTES: int(10 * 1024 * 1024, 1),
  // 200 MB: a 50-megapixel 8-bit photo (150 MB) and a 30-megapixel 8-bit RGBA PNG (120 MB) pass.
  MAX_DECODE_BYTES: int(200_000_000, 1_000_000),
  PREVIEW_SIZE: int(2048, 400, 8192),
  PUBLIC_URL: optionalUrl.transform((v) => v?.replace(/\/+$/, "")),
  ADMIN_EMAIL: optionalText.refine((v) => v === undefined || v.includes("@"), "must be an e-mail address"),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  SEED_DEMO: flag(true),
  SMTP_URL: optionalUrl,
  MAIL_FROM: optionalText.transform((v) => v ?? "Photodrop <no-reply@photodrop.local>"),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: optionalUrl.transform((v) => v ?? "https://www.googleapis.com/oauth2/v3/certs"),
  GOOGLE_ISSUER: optionalText.transform((v) => v ?? "https://accounts.google.com"),
  PASSWORD_MIN_LENGTH: int(6, 1, 4096),
  PASSWORD_MAX_LENGTH: int(0, 0, 4096),
  PASSWORD_REQUIRE_UPPER: flag(false),
  PASSWORD_REQUIRE_LOWER: flag(false),
  PASSWORD_REQUIRE_NUMBER: flag(false),
  PASSWORD_REQUIRE_SYMBOL: flag(false),
  ACCESS_TOKEN_TTL: int(3600, 30),
  REFRESH_TOKEN_TTL: int(2592000, 60),
  PUBLISH_CONCURRENCY: int(2, 1, 64),
  PUBLISH_LEASE_SECONDS: int(30, 3, 3600),
  RATE_LIMIT_WINDOW: int(60, 1, 86400),
  RATE_LIMIT_PER_IP: int(30, 1),
  RATE_LIMIT_PER_ACCOUNT: int(10, 1),
  RATE_LIMIT_PER_ACCOUNT_HOURLY: int(100, 1),
  TRUST_PROXY: optionalText.transform((v) => {
    // A hop count is safer than `true`, which would believe any client's own X-Forwarded-For.
    if (v === undefined || v === "0" || v === "false") return false;
    if (v === "true") return true;
    return /^\d+$/.test(v) ? Number(v) : v;
  }),
  HSTS_INCLUDE_SUBDOMAINS: flag(false),
  MIN_FREE_DISK_MB: int(100, 0),
  STUDIO_NAME: optionalText.transform((v) => v ?? "Photodrop"),
  SEND_LIMIT_PER_USER: int(20, 1),
  SEND_LIMIT_PER_PROJECT: int(10, 1),
  REMINDER_CHECK_SECONDS: int(60, 1, 86400),
  DELIVERY_THUMBNAIL_CACHE_MB: int(64, 0, 65536),
  SENDFILE_HEADER: z
    .enum(["X-Accel-Redirect", "X-Sendfile", ""])
    .optional()
    .transform((v) => v || undefined),
  DATA_GROUP: optionalText.refine(
    (v) => v === undefined || /^(\d+|[A-Za-z_][A-Za-z0-9_.-]*\$?)$/.test(v),
    "must be a group's name or number (unset: only Photodrop's own user reads its files)",
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional().default("info"),
  SLOW_REQUEST_MS: int(1000, 1),
  BODY_TIMEOUT_SECONDS: int(15, 1, 3600),
  EVENTS_MAX_SOCKETS_PER_IP: int(20, 1),
  EVENTS_MAX_SOCKETS: int(2000, 1),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v)),
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof envSchema>) {
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    /** Connections per process to PostgreSQL (sqlite always uses one). */
    databasePoolMax: env.DATABASE_POOL_MAX,
    uploadsDir: env.UPLOADS_DIR,
    publishedDir: env.PUBLISHED_DIR,
    /** Where files live: the folders above, or a bucket (then UPLOADS_DIR only holds uploads being received). */
    storage: storageOf(env),
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    /** Memory an image may take to decode (width × height × channels × bytes per sample, see decodeBytes). */
    maxDecodeBytes: env.MAX_DECODE_BYTES,
    /** The long edge in pixels of each photo's screen-sized preview (a smaller photo keeps its own size). */
    previewSize: env.PREVIEW_SIZE,
    publicUrl: env.PUBLIC_URL,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD }
        : undefined,
    seedDemo: env.SEED_DEMO,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    google: env.GOOGLE_CLIENT_ID
      ? { clientId: env.GOOGLE_CLIENT_ID, jwksUrl: env.GOOGLE_JWKS_URL, issuer: env.GOOGLE_ISSUER }
      : undefined,
    passwordPolicy: {
      minLength: env.PASSWORD_MIN_LENGTH,
      maxLength: env.PASSWORD_MAX_LENGTH || null,
      requireUppercase: env.PASSWORD_REQUIRE_UPPER,
      requireLowercase: env.PASSWORD_REQUIRE_LOWER,
      requireNumeric: env.PASSWORD_REQUIRE_NUMBER,
      requireNonAlphanumeric: env.PASSWORD_REQUIRE_SYMBOL,
    },
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.REFRESH_TOKEN_TTL,
    publishConcurrency: env.PUBLISH_CONCURRENCY,
    /** A build's process renews its lease every third of this; a build whose lease ran out is failed by any process. */
    publishLeaseSeconds: env.PUBLISH_LEASE_SECONDS,
    // Sign-in, sign-up, refresh and reset attempts per window (seconds), per client IP and per e-mail.
    // perAccount counts per account and address pair; perAccountHourly per account from every address.
    rateLimit: {
      windowSeconds: env.RATE_LIMIT_WINDOW,
      perIp: env.RATE_LIMIT_PER_IP,
      perAccount: env.RATE_LIMIT_PER_ACCOUNT,
      perAccountHourly: env.RATE_LIMIT_PER_ACCOUNT_HOURLY,
    },
    /** Express's `trust proxy`: set behind a reverse proxy so per-IP limits see the client's address. */
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    /** Requests slower than this (ms) are logged at warn. */
    slowRequestMs: env.SLOW_REQUEST_MS,
    /** A JSON body must arrive whole within this many seconds, or 408. */
    bodyTimeoutSeconds: env.BODY_TIMEOUT_SECONDS,
    /** Open /events sockets per client address and in all; beyond, the upgrade is refused (429, 503). */
    events: { maxSocketsPerIp: env.EVENTS_MAX_SOCKETS_PER_IP, maxSockets: env.EVENTS_MAX_SOCKETS },
    /** Unset: /metrics is off. Set: /metrics needs it as a bearer token. */
    metricsToken: env.METRICS_TOKEN,
    /** HSTS (sent only over HTTPS) also covers every subdomain of the studio's name. */
    hstsIncludeSubDomains: env.HSTS_INCLUDE_SUBDOMAINS,
    /** /readyz answers 503 while a data folder's disk has less free space than this (0: never). */
    minFreeDiskBytes: env.MIN_FREE_DISK_MB * 1024 * 1024,
    /** Shown on every client's delivery page. */
    studioName: env.STUDIO_NAME,
    /** 'Send to client' sends allowed per hour, per staff member and per project. */
    sendLimit: { perUser: env.SEND_LIMIT_PER_USER, perProject: env.SEND_LIMIT_PER_PROJECT },
    /** How often each process looks for reminders due and links that expired (seconds). */
    reminderCheckSeconds: env.REMINDER_CHECK_SECONDS,
    /** Delivery thumbnails kept in memory, in bytes (0: none). */
    deliveryThumbnailCacheBytes: env.DELIVERY_THUMBNAIL_CACHE_MB * 1024 * 1024,
    /** Behind a proxy that sends files itself: the header that names the file (see README, "Behind a reverse proxy"). */
    sendfileHeader: env.SENDFILE_HEADER,
    /** The group (name or number) given read access to UPLOADS_DIR and PUBLISHED_DIR, for a proxy sending files itself; unset: no one but Photodrop's user. */
    dataGroup: env.DATA_GROUP,
  };
}

export class ConfigError extends Error {}

/** Reads every setting from the environment once; a bad value throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = toConfig(parsed.data);
  const { minLength, maxLength } = config.passwordPolicy;
  if (maxLength !== null && maxLength < minLength) {
    throw new ConfigError("Invalid configuration:\n  PASSWORD_MAX_LENGTH: must not be below PASSWORD_MIN_LENGTH");
  }
  if (Boolean(env.S3_ACCESS_KEY_ID?.trim()) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError("Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  }
  if (Boolean(env.ADMIN_EMAIL?.trim()) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError("Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
  }
  return config;
}
