import path from "node:path";
import { z } from "zod";

/** Where the configuration reference (docs/configuration.md) lists a setting: the way an admin looks for it. */
export const SETTING_GROUPS = {
  server: "Server and network",
  folders: "Data folders",
  database: "Database",
  storage: "Object storage",
  mail: "Mail",
  identity: "Sign-in and accounts",
  limits: "Limits",
  delivery: "Publishing and delivery",
  logging: "Logging and monitoring",
} as const;

/**
 * What the configuration reference says of a setting, kept on its schema (zod's `.meta`): the
 * helpers below give `default` and `values` from the same arguments the parser uses; each setting
 * adds its group and meaning.
 */
export interface SettingDoc {
  group: keyof typeof SETTING_GROUPS;
  description: string;
  /** The value used when it is unset, as it would be written in the environment; absent: unset means off or none. */
  default?: string;
  /** The values it takes. */
  values?: string;
}

const doc = (group: SettingDoc["group"], description: string, more: Partial<SettingDoc> = {}) => ({
  group,
  description,
  ...more,
});

const flag = (fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["1", "true", "yes"].includes(v)))
    .meta({ default: fallback ? "1" : "0", values: "`1`, `true`, `yes` or `0`, `false`, `no`" });

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
    })
    .meta({
      default: String(fallback),
      values: max === Number.MAX_SAFE_INTEGER ? `a whole number, ${min} or more` : `a whole number, ${min} to ${max}`,
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** Text with a value when unset. */
const textOr = (fallback: string) => optionalText.transform((v) => v ?? fallback).meta({ default: fallback });

/** A folder, made absolute from the working directory. */
const folder = (fallback: string) =>
  optionalText
    .transform((v) => path.resolve(v ?? fallback))
    .meta({ default: fallback, values: "a folder's path (relative: from the working directory)" });

const optionalUrl = optionalText
  .refine((v) => v === undefined || URL.canParse(v), "must be an absolute URL")
  .meta({ values: "an absolute URL" });

/** An absolute URL with a value when unset. */
const urlOr = (fallback: string) => optionalUrl.transform((v) => v ?? fallback).meta({ default: fallback });

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
  PORT: int(3000, 0, 65535).meta(
    doc("server", "The HTTP port it listens on (`0`: any free port; the one chosen is printed)."),
  ),
  HOST: textOr("127.0.0.1").meta(
    doc("server", "The address it listens on: `127.0.0.1` this computer only, `0.0.0.0` the studio's network too.", {
      values: "an IP address or host name",
    }),
  ),
  DATABASE_URL: textOr("./photodrop.sqlite3").meta(
    doc("database", "Where the data lives: a sqlite file, or a PostgreSQL database.", {
      values: "a sqlite file's path, or `postgres://user:password@host:5432/name`",
    }),
  ),
  DATABASE_POOL_MAX: int(10, 1, 1000).meta(
    doc(
      "database",
      "Connections per process to PostgreSQL, plus half as many for list pages (sqlite always uses one).",
    ),
  ),
  UPLOADS_DIR: folder("./uploads").meta(
    doc("folders", "Photos, attachments, thumbnails and previews; with `STORAGE_URL`, only uploads being received."),
  ),
  PUBLISHED_DIR: folder("./published").meta(
    doc("folders", "Published ZIPs (unused with `STORAGE_URL`: they are in the bucket)."),
  ),
  STORAGE_URL: optionalText
    .refine(
      (v) => v === undefined || STORAGE_URL.test(v),
      "must be s3://<bucket> or s3://<bucket>/<prefix> (unset: the folders UPLOADS_DIR and PUBLISHED_DIR)",
    )
    .meta(
      doc(
        "storage",
        "Unset: files in `UPLOADS_DIR` and `PUBLISHED_DIR`. Set: photos, thumbnails, previews and the logo in that bucket under `prefix/uploads/`, published ZIPs under `prefix/published/`.",
        { values: "`s3://bucket` or `s3://bucket/prefix`" },
      ),
    ),
  S3_ENDPOINT: optionalUrl.meta(
    doc("storage", "The S3 API's URL of a provider other than AWS (Backblaze B2, MinIO, Ceph…); unset: AWS."),
  ),
  S3_REGION: textOr("us-east-1").meta(doc("storage", "The bucket's region.")),
  S3_ACCESS_KEY_ID: optionalText.meta(
    doc(
      "storage",
      "The key's id, set together with `S3_SECRET_ACCESS_KEY`; unset: the AWS SDK's own chain (environment, profile, instance role).",
    ),
  ),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .meta(doc("storage", "The key's secret, set together with `S3_ACCESS_KEY_ID`; never logged.")),
  S3_FORCE_PATH_STYLE: flag(false).meta(
    doc(
      "storage",
      "`1`: `endpoint/bucket/key` URLs instead of `bucket.endpoint/key` (MinIO, Ceph, most self-hosted servers).",
    ),
  ),
  S3_PRESIGNED_DOWNLOADS: flag(false).meta(
    doc(
      "storage",
      "`1`: with `STORAGE_URL`, a download is answered, after every access check, with a redirect to a link at the bucket, so its bytes do not pass through Photodrop.",
    ),
  ),
  S3_PRESIGNED_SECONDS: int(300, 10, 3600).meta(
    doc("storage", "How long such a link at the bucket stays valid, in seconds."),
  ),
  MAX_UPLOAD_BYTES: int(10 * 1024 * 1024, 1).meta(
    doc("limits", "The largest file one upload may be, in bytes (10 MiB)."),
  ),
  // 200 MB: a 50-megapixel 8-bit photo (150 MB) and a 30-megapixel 8-bit RGBA PNG (120 MB) pass.
  MAX_DECODE_BYTES: int(200_000_000, 1_000_000).meta(
    doc(
      "limits",
      'Memory one image may take to decode (width × height × channels × bytes per sample), and what the decodes under way may take together; beyond: 415 "Image is too large to process".',
    ),
  ),
  PREVIEW_SIZE: int(2048, 400, 8192).meta(
    doc(
      "delivery",
      "Long edge in pixels of each photo's preview, the screen-sized JPEG the gallery and the web app show; a smaller photo keeps its size. Applies to previews made afterwards.",
    ),
  ),
  PUBLIC_URL: optionalUrl
    .transform((v) => v?.replace(/\/+$/, ""))
    .meta(
      doc(
        "server",
        "The address staff and clients open, for links in e-mails and copied links. Unset: taken from the request only when it names this machine; set it whenever Photodrop is reached by a domain name.",
        { values: "an absolute URL" },
      ),
    ),
  ADMIN_EMAIL: optionalText
    .refine((v) => v === undefined || v.includes("@"), "must be an e-mail address")
    .meta(
      doc("identity", "With `ADMIN_PASSWORD`: at every start, this account exists, is approved and is an admin.", {
        values: "an e-mail address",
      }),
    ),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .meta(doc("identity", "The password of `ADMIN_EMAIL`'s account, set together with it; never logged.")),
  SEED_DEMO: flag(true).meta(
    doc(
      "identity",
      "On the first start with an empty database, load the demo data and print its admin's password once.",
    ),
  ),
  SMTP_URL: optionalUrl.meta(
    doc(
      "mail",
      "Send mail over SMTP (`smtp://user:password@host:587`); unset: mail is written to the log and nothing reaches clients.",
    ),
  ),
  MAIL_FROM: textOr("Photodrop <no-reply@photodrop.local>").meta(doc("mail", "The sender of every mail.")),
  GOOGLE_CLIENT_ID: optionalText.meta(doc("identity", 'Turns on "Continue with Google" with this OAuth client id.')),
  GOOGLE_JWKS_URL: urlOr("https://www.googleapis.com/oauth2/v3/certs").meta(
    doc("identity", "Where Google's signing keys are read (changed only by tests running their own issuer)."),
  ),
  GOOGLE_ISSUER: textOr("https://accounts.google.com").meta(
    doc("identity", "The issuer a Google sign-in must name (changed only by tests running their own issuer)."),
  ),
  PASSWORD_MIN_LENGTH: int(6, 1, 4096).meta(doc("identity", "Password policy: the shortest password allowed.")),
  PASSWORD_MAX_LENGTH: int(0, 0, 4096).meta(
    doc("identity", "Password policy: the longest password allowed (`0`: no limit); not below `PASSWORD_MIN_LENGTH`."),
  ),
  PASSWORD_REQUIRE_UPPER: flag(false).meta(doc("identity", "Password policy: `1` requires an uppercase letter.")),
  PASSWORD_REQUIRE_LOWER: flag(false).meta(doc("identity", "Password policy: `1` requires a lowercase letter.")),
  PASSWORD_REQUIRE_NUMBER: flag(false).meta(doc("identity", "Password policy: `1` requires a digit.")),
  PASSWORD_REQUIRE_SYMBOL: flag(false).meta(
    doc("identity", "Password policy: `1` requires a character that is neither letter nor digit."),
  ),
  ACCESS_TOKEN_TTL: int(3600, 30).meta(doc("identity", "Seconds a signed-in session's access token lives.")),
  REFRESH_TOKEN_TTL: int(2592000, 60).meta(
    doc("identity", "Seconds a session lasts without signing in again (30 days)."),
  ),
  PUBLISH_CONCURRENCY: int(2, 1, 64).meta(
    doc("delivery", "ZIP builds run at once by each process; the rest wait in order."),
  ),
  PUBLISH_LEASE_SECONDS: int(30, 3, 3600).meta(
    doc(
      "delivery",
      "How long a build stays claimed without its process renewing it (every third of it); then any process fails it.",
    ),
  ),
  RATE_LIMIT_WINDOW: int(60, 1, 86400).meta(
    doc("limits", "The window, in seconds, of the sign-in, sign-up, refresh and reset limits below."),
  ),
  RATE_LIMIT_PER_IP: int(30, 1).meta(doc("limits", "Such attempts per window from one client address; past it: 429.")),
  RATE_LIMIT_PER_ACCOUNT: int(10, 1).meta(
    doc(
      "limits",
      "Such attempts per window for one account from one address (failures elsewhere never lock its owner out).",
    ),
  ),
  RATE_LIMIT_PER_ACCOUNT_HOURLY: int(100, 1).meta(
    doc("limits", "Failed sign-ins per account an hour, from all addresses together: the brute-force ceiling."),
  ),
  TRUST_PROXY: optionalText
    .transform((v) => {
      // A hop count is safer than `true`, which would believe any client's own X-Forwarded-For.
      if (v === undefined || v === "0" || v === "false") return false;
      if (v === "true") return true;
      return /^\d+$/.test(v) ? Number(v) : v;
    })
    .meta(
      doc(
        "server",
        "Behind a reverse proxy: how far to believe `X-Forwarded-For` and `X-Forwarded-Proto`, so limits see the client's address and cookies the HTTPS. Unset: no proxy is believed.",
        {
          values: "the number of proxies in front (usually `1`), or addresses, subnets or `loopback`, comma-separated",
        },
      ),
    ),
  HSTS_INCLUDE_SUBDOMAINS: flag(false).meta(
    doc(
      "server",
      "`1`: the `Strict-Transport-Security` header (sent only over HTTPS) also covers every subdomain; only when all of them serve HTTPS.",
    ),
  ),
  MIN_FREE_DISK_MB: int(100, 0).meta(
    doc(
      "folders",
      "`/readyz` answers 503 while a data folder's disk has less free space than this many MiB (`0`: never).",
    ),
  ),
  STUDIO_NAME: textOr("Photodrop").meta(
    doc(
      "delivery",
      "The studio's name on delivery pages and in mails to clients, until an admin saves one on the Studio screen.",
    ),
  ),
  SEND_LIMIT_PER_USER: int(20, 1).meta(
    doc("limits", "'Send to client' sends per hour by one staff member; past it: 429."),
  ),
  SEND_LIMIT_PER_PROJECT: int(10, 1).meta(
    doc("limits", "'Send to client' sends per hour for one project; past it: 429."),
  ),
  REMINDER_CHECK_SECONDS: int(60, 1, 86400).meta(
    doc(
      "delivery",
      "How often each process looks for reminders that are due and delivery links that expired, in seconds.",
    ),
  ),
  DELIVERY_THUMBNAIL_CACHE_MB: int(64, 0, 65536).meta(
    doc("delivery", "Memory for delivery pages' thumbnails, in MiB, least recently used dropped first (`0`: none)."),
  ),
  SENDFILE_HEADER: z
    .enum(["X-Accel-Redirect", "X-Sendfile", ""])
    .optional()
    .transform((v) => v || undefined)
    .meta(
      doc(
        "server",
        "Behind a proxy that sends files itself: Photodrop decides access to a delivery's files and names the file in this header. Unset: Photodrop sends them.",
        { values: "`X-Accel-Redirect` (nginx) or `X-Sendfile`" },
      ),
    ),
  DATA_GROUP: optionalText
    .refine(
      (v) => v === undefined || /^(\d+|[A-Za-z_][A-Za-z0-9_.-]*\$?)$/.test(v),
      "must be a group's name or number (unset: only Photodrop's own user reads its files)",
    )
    .meta(
      doc(
        "folders",
        "A group that may read the data folders, for a proxy sending their files: files `0640`, folders `0750`. Unset: files `0600` in `0700` folders.",
        { values: "a group's name or number" },
      ),
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .optional()
    .default("info")
    .meta(
      doc("logging", "The least severe log lines written (JSON lines on standard output).", {
        default: "info",
        values: "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`",
      }),
    ),
  SLOW_REQUEST_MS: int(1000, 1).meta(
    doc("logging", "Requests slower than this many milliseconds are logged at `warn`."),
  ),
  BODY_TIMEOUT_SECONDS: int(15, 1, 3600).meta(
    doc(
      "limits",
      "A request body must arrive whole within this many seconds, or 408 (uploads keep their own 15 s idle timeout).",
    ),
  ),
  EVENTS_MAX_SOCKETS_PER_IP: int(20, 1).meta(
    doc("limits", "Open `/events` sockets (the web app's live updates) per client address; beyond: 429."),
  ),
  EVENTS_MAX_SOCKETS: int(2000, 1).meta(doc("limits", "Open `/events` sockets in all; beyond: 503.")),
  API_TOKEN_REQUESTS_PER_MINUTE: int(600, 1, 1_000_000).meta(
    doc(
      "limits",
      "Requests a minute one API token may make, counted by each process; past it: 429 with `Retry-After`.",
    ),
  ),
  WEBHOOK_ALLOW_PRIVATE: flag(false).meta(
    doc(
      "server",
      "`1`: webhooks may be sent to loopback, private (RFC 1918) and unique-local addresses, for a receiver on the studio's network (n8n). Link-local and cloud metadata addresses are always refused.",
    ),
  ),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v))
    .meta(
      doc("logging", "Turns `GET /metrics` (Prometheus) on; a scrape sends `Authorization: Bearer <METRICS_TOKEN>`."),
    ),
});

/** Every setting, in the schema's order, with what the reference says of it. */
export function settingDocs(): Array<SettingDoc & { name: string }> {
  return Object.entries(envSchema.shape).map(([name, schema]) => {
    const meta = z.globalRegistry.get(schema) as Partial<SettingDoc> | undefined;
    if (!meta?.group || !meta.description) throw new Error(`${name} has no group or description in server/config.ts`);
    return { name, ...(meta as SettingDoc) };
  });
}

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
    /** Requests a minute one API token may make in each process; past it, 429. */
    apiTokenRequestsPerMinute: env.API_TOKEN_REQUESTS_PER_MINUTE,
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
    /** Behind a proxy that sends files itself: the header that names the file (see docs/behind-nginx.md). */
    sendfileHeader: env.SENDFILE_HEADER,
    /** The group (name or number) given read access to UPLOADS_DIR and PUBLISHED_DIR, for a proxy sending files itself; unset: no one but Photodrop's user. */
    dataGroup: env.DATA_GROUP,
    /** Webhooks may reach loopback, private and unique-local addresses (never link-local or metadata ones). */
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
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
