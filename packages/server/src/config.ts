import path from 'node:path';
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { planIds, plans, type PlanId } from '@linkaudit/core';
import { parseSecretsKey } from './modules/scans/secret-box.js';

/** Where the repository root is, so defaults work whatever the current directory. */
const repoRoot = path.resolve(import.meta.dirname, '../../..');

const booleanFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const durationUnits = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** A lifetime such as `90s`, `30m`, `12h` or `7d`, in seconds. */
const durationSchema = z
  .string()
  .regex(/^\d+[smhd]$/, 'must be a whole number followed by s, m, h or d (e.g. 30m, 12h, 7d)')
  .transform((value) => {
    const unit = value.slice(-1) as keyof typeof durationUnits;
    return Number(value.slice(0, -1)) * durationUnits[unit];
  })
  .refine((seconds) => seconds > 0, 'must be longer than 0');

/** A comma-separated list; blanks are ignored, names are compared in lower case. */
const listSchema = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== ''),
);

/**
 * Per-plan numbers such as `Free=1,Basic=2,Enterprise=8`: the plans named are changed, the
 * others keep their default.
 */
const perPlanSchema = z
  .string()
  .regex(
    new RegExp(`^\\s*(${planIds.join('|')})=\\d+\\s*(,\\s*(${planIds.join('|')})=\\d+\\s*)*$`),
    `must be a comma-separated list of plan=number (plans: ${planIds.join(', ')})`,
  )
  .transform(
    (value) =>
      Object.fromEntries(
        value.split(',').map((item) => {
          const [plan = '', count = ''] = item.split('=');
          return [plan.trim(), Number(count)];
        }),
      ) as Partial<Record<PlanId, number>>,
  )
  .refine((counts) => Object.values(counts).every((count) => count >= 1 && count <= 64), {
    message: 'each number must be from 1 to 64',
  });

/** Every setting the server reads from its environment (README, "Configuration"). */
export const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SQLITE_READ_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  SQLITE_REPORT_READ_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  SQLITE_EXPORT_READ_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  REPORT_READS_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  REPORT_EXPORTS_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  REPORT_READ_QUEUE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  PUBLIC_URL: z.url().optional(),
  WEB_DIST_DIR: z.string().min(1).default(path.join(repoRoot, 'packages/web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token /metrics asks for; without it /metrics answers only direct loopback clients. */
  METRICS_TOKEN: z.string().min(16).max(512).optional(),
  /** Further addresses (or CIDR ranges) /metrics answers without a token, when called directly. */
  METRICS_ALLOWED_ADDRESSES: listSchema
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (entry) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry),
            'must be a comma-separated list of IP addresses or CIDR ranges (10.0.0.0/8)',
          ),
      ),
    )
    .default([]),
  LINKAUDIT_ALLOW_PRIVATE: booleanFlag.default(false),
  LINKAUDIT_ALLOWED_HOSTS: listSchema.default([]),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  WORKER_ID: z.string().trim().min(1).max(200).optional(),
  SCAN_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  SCHEDULER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  SCAN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  SCAN_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  SCAN_RUNNING_PER_USER: perPlanSchema.default({}),
  SCAN_REQUEST_DEADLINE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** The Chromium that renders pages (issue 35); default Debian's /usr/bin/chromium. */
  CHROMIUM_PATH: z.string().trim().min(1).optional(),
  SCAN_ISOLATION: z.enum(['process', 'none']).default('process'),
  SCAN_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(65536).default(1024),
  ENTERPRISE_URLS_PER_SCAN: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(10_000_000)
    .default(plans.Enterprise.urlsPerScan),
  SAMPLE_REPORT: booleanFlag.default(true),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d+|[0-9a-fA-F:.,/\s]+)$/,
      'must be true, false, a number of proxy hops, or a list of proxy addresses',
    )
    .default('false'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SCAN_SECRETS_KEY: z
    .string()
    .refine(
      (value) => parseSecretsKey(value) !== undefined,
      'must be 32 bytes written as 64 hex digits or in base64 (openssl rand -base64 32)',
    )
    .optional(),
  ACCESS_TOKEN_TTL: durationSchema.default(24 * 3600),
  REMEMBER_ME_TOKEN_TTL: durationSchema.default(30 * 24 * 3600),
  EMAIL_CONFIRMATION_TTL: durationSchema.default(7 * 24 * 3600),
  PASSWORD_RESET_TTL: durationSchema.default(3600),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  ADMIN_EMAILS: listSchema
    .pipe(z.array(z.email('must be a comma-separated list of e-mail addresses')))
    .default([]),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(20),
  OIDC_PROVIDERS: listSchema
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^[a-z][a-z0-9]*$/,
            'provider names are letters and digits, starting with a letter',
          ),
      ),
    )
    .default([]),
});

/** What every external sign-in provider has, from `OIDC_<NAME>_*` variables. */
interface ExternalProviderBase {
  /** Lower-case id used in URLs and stored with each login, e.g. `videosite`. */
  name: string;
  displayName: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

/** An OpenID Connect provider found by discovery from its issuer; it answers ID tokens. */
export interface IssuerProviderConfig extends ExternalProviderBase {
  kind: 'issuer';
  issuer: string;
}

/**
 * A provider given by its endpoints (plain OAuth 2, or OpenID Connect without discovery): with
 * no issuer to check an ID token against, the person is read from the userinfo endpoint.
 */
export interface EndpointsProviderConfig extends ExternalProviderBase {
  kind: 'endpoints';
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string;
}

export type ExternalProviderConfig = IssuerProviderConfig | EndpointsProviderConfig;

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * SQLite only: read connections, each in its own worker thread (db/dialects/threaded-sqlite.ts):
   * for every read but reports', and kept for report reads, so neither kind queues behind the other.
   */
  sqliteReadThreads: number;
  sqliteReportReadThreads: number;
  sqliteExportReadThreads: number;
  /** Report tabs and CSV exports one reader runs at once, and how long a further one waits. */
  reportReads: { perUser: number; queueWaitMs: number };
  reportExports: { perUser: number; queueWaitMs: number };
  publicUrl: string;
  webDistDir: string;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  metricsToken: string | undefined;
  /** Addresses and ranges besides loopback /metrics answers without its token (direct calls). */
  metricsAllowedAddresses: string[];
  allowPrivateTargets: boolean;
  scans: {
    /** Host names (or IP literals) scanned whatever they resolve to. */
    allowedHosts: string[];
    /** Scans one worker process runs at a time; 0 runs none (an api-only process). */
    workerConcurrency: number;
    /**
     * Names this worker's machine or container across restarts (default: the host name): a
     * restarted worker takes back the scans it held when it died at once, not after their lease.
     */
    workerId: string;
    /** A worker renews its lease every second; a scan whose lease ran out is re-queued. */
    leaseSeconds: number;
    /**
     * Starts of one scan before a lost lease or an engine exception fails it instead of
     * re-queueing it.
     */
    maxAttempts: number;
    /**
     * A scan re-queued after a lost lease or an engine exception waits this long before its
     * next start, doubled for each further attempt (at most an hour).
     */
    retryBackoffMs: number;
    /** Scans one user runs at once, by plan (core's defaults, changed by SCAN_RUNNING_PER_USER). */
    runningPerUser: Record<PlanId, number>;
    /** How often a scheduler (role all or scheduler) looks for due schedules. */
    schedulerIntervalSeconds: number;
    /** One request of a scan, connecting to the end of its body; past it the link is Time Out. */
    requestDeadlineSeconds: number;
    /** The Chromium scans render pages with, when set (CHROMIUM_PATH). */
    chromiumPath: string | undefined;
    /**
     * 'process': each scan runs in a process of its own, its heap capped at memoryLimitMb (a scan
     * can neither stall the API nor keep its memory); 'none': in the API's own process.
     */
    isolation: { mode: 'process' | 'none'; memoryLimitMb: number };
    /** URLs one Enterprise scan may check (the price list says 500,000; an operator may differ). */
    enterpriseUrlsPerScan: number;
  };
  sampleReport: {
    /** Serve the demo site and scan it at first start (the public sample report). */
    enabled: boolean;
    /** PUBLIC_URL when given; unset, the sample site is scanned at the listening address. */
    origin: string | undefined;
  };
  /** Unset: a key generated once and kept in DATA_DIR (scans/secret-box.ts). */
  scanSecretsKey: string | undefined;
  /** Fastify's trustProxy: which X-Forwarded-* headers to believe. */
  trustProxy: boolean | number | string[];
  auth: {
    /** Unset: a secret generated once and kept in DATA_DIR (accounts/access-tokens.ts). */
    jwtSecret: string | undefined;
    accessTokenTtlSeconds: number;
    rememberMeTokenTtlSeconds: number;
    emailConfirmationTtlSeconds: number;
    passwordResetTtlSeconds: number;
    /** Requests per minute and client address on /token, register and forgotpassword. */
    rateLimitPerMinute: number;
    /** Lower-case addresses that are always admins. */
    adminEmails: string[];
    externalProviders: ExternalProviderConfig[];
  };
  mail: {
    /** Unset: mails are written to DATA_DIR/mail and their links logged. */
    smtpUrl: string | undefined;
    from: string;
  };
  /**
   * Outgoing messages (mail now, webhooks later): how often a process looks for due ones, the
   * wait after a first failure (doubled per attempt, at most an hour), and the tries before a
   * message is given up (issue 36).
   */
  outbox: { pollMs: number; retryBaseMs: number; maxAttempts: number };
  billing: {
    /** 'stripe' when STRIPE_SECRET_KEY is set; else the embedded sandbox gateway. */
    gateway: 'sandbox' | 'stripe';
    /** The STRIPE_* variables, read by the Stripe adapter (stripe-gateway.ts) itself. */
    stripeEnvironment: Record<string, string | undefined>;
  };
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/**
 * The address people reach the server at when PUBLIC_URL is not set (issue 37): the host it
 * listens on (HOST=127.0.0.1 → http://127.0.0.1:3000, so the start log and the mails' links name
 * what a browser opens), and localhost for a wildcard (all interfaces).
 */
function listenedUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** The sender's domain: PUBLIC_URL's host name, localhost for an IP address (no mail domain). */
function mailDomain(publicUrl: string): string {
  const { hostname } = new URL(publicUrl);
  return /^[\d.]+$|^\[/.test(hostname) ? 'localhost' : hostname;
}

/** Reads and validates the configuration once, at start; every problem is listed, not just the first. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const providers = parsed.success
    ? readExternalProviders(parsed.data.OIDC_PROVIDERS, environment, problems)
    : [];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? listenedUrl(env.HOST, env.PORT)).replace(/\/+$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    sqliteReadThreads: env.SQLITE_READ_THREADS,
    sqliteReportReadThreads: env.SQLITE_REPORT_READ_THREADS,
    sqliteExportReadThreads: env.SQLITE_EXPORT_READ_THREADS,
    reportReads: { perUser: env.REPORT_READS_PER_USER, queueWaitMs: env.REPORT_READ_QUEUE_MS },
    reportExports: { perUser: env.REPORT_EXPORTS_PER_USER, queueWaitMs: env.REPORT_READ_QUEUE_MS },
    publicUrl,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    metricsAllowedAddresses: env.METRICS_ALLOWED_ADDRESSES,
    allowPrivateTargets: env.LINKAUDIT_ALLOW_PRIVATE,
    scans: {
      allowedHosts: env.LINKAUDIT_ALLOWED_HOSTS,
      workerConcurrency: env.WORKER_CONCURRENCY,
      workerId: env.WORKER_ID ?? hostname(),
      leaseSeconds: env.SCAN_LEASE_SECONDS,
      maxAttempts: env.SCAN_MAX_ATTEMPTS,
      retryBackoffMs: env.SCAN_RETRY_BACKOFF_MS,
      runningPerUser: runningPerUser(env.SCAN_RUNNING_PER_USER),
      schedulerIntervalSeconds: env.SCHEDULER_INTERVAL_SECONDS,
      requestDeadlineSeconds: env.SCAN_REQUEST_DEADLINE_SECONDS,
      chromiumPath: env.CHROMIUM_PATH,
      isolation: { mode: env.SCAN_ISOLATION, memoryLimitMb: env.SCAN_MEMORY_LIMIT_MB },
      enterpriseUrlsPerScan: env.ENTERPRISE_URLS_PER_SCAN,
    },
    sampleReport: { enabled: env.SAMPLE_REPORT, origin: env.PUBLIC_URL ? publicUrl : undefined },
    scanSecretsKey: env.SCAN_SECRETS_KEY,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    auth: {
      jwtSecret: env.JWT_SECRET,
      accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL,
      rememberMeTokenTtlSeconds: env.REMEMBER_ME_TOKEN_TTL,
      emailConfirmationTtlSeconds: env.EMAIL_CONFIRMATION_TTL,
      passwordResetTtlSeconds: env.PASSWORD_RESET_TTL,
      rateLimitPerMinute: env.AUTH_RATE_LIMIT,
      adminEmails: env.ADMIN_EMAILS,
      externalProviders: providers,
    },
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `LinkAudit <no-reply@${mailDomain(publicUrl)}>`,
    },
    outbox: {
      pollMs: env.OUTBOX_POLL_MS,
      retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
      maxAttempts: env.OUTBOX_MAX_ATTEMPTS,
    },
    billing: {
      gateway: environment.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox',
      stripeEnvironment: Object.fromEntries(
        Object.entries(environment).filter(([name]) => name.startsWith('STRIPE_')),
      ),
    },
  };
}

/** Each plan's running scans per user: the operator's number, else the plan's default. */
function runningPerUser(given: Partial<Record<PlanId, number>>): Record<PlanId, number> {
  return Object.fromEntries(
    planIds.map((id) => [id, given[id] ?? plans[id].runningScansPerUser]),
  ) as Record<PlanId, number>;
}

/** `true`/`false`, a hop count (`1` behind one load balancer), or the proxies' addresses. */
function readTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Codes and client secrets go to a provider over https only, or over http to this machine. */
function isSecureProviderUrl(value: string): boolean {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return (
    url?.protocol === 'https:' || (url?.protocol === 'http:' && loopbackHosts.has(url.hostname))
  );
}

/** Reads one provider's variable, trimmed; '' when unset. */
type ProviderVariable = (key: string) => string;

/**
 * `OIDC_<NAME>_CLIENT_ID`, `_CLIENT_SECRET`, `_DISPLAY_NAME`, `_SCOPES` per provider, and where
 * it is: `_ISSUER`, or `_AUTHORIZATION_ENDPOINT`, `_TOKEN_ENDPOINT` and `_USERINFO_ENDPOINT`.
 */
function readExternalProviders(
  names: string[],
  environment: Record<string, string | undefined>,
  problems: string[],
): ExternalProviderConfig[] {
  return names.map((name) => {
    const prefix = `OIDC_${name.toUpperCase()}_`;
    const read: ProviderVariable = (key) => environment[prefix + key]?.trim() ?? '';
    const required = (key: string): string => {
      const value = read(key);
      if (value === '') problems.push(`${prefix}${key}: required for provider "${name}"`);
      return value;
    };
    const location = readProviderLocation(name, prefix, read, problems);
    return {
      name,
      displayName: read('DISPLAY_NAME') || name,
      clientId: required('CLIENT_ID'),
      clientSecret: required('CLIENT_SECRET'),
      scopes: read('SCOPES') || 'openid email profile',
      ...location,
    };
  });
}

const endpointKeys = {
  authorizationEndpoint: 'AUTHORIZATION_ENDPOINT',
  tokenEndpoint: 'TOKEN_ENDPOINT',
  userinfoEndpoint: 'USERINFO_ENDPOINT',
} as const;

type ProviderLocation =
  | Pick<IssuerProviderConfig, 'kind' | 'issuer'>
  | Pick<EndpointsProviderConfig, 'kind' | keyof typeof endpointKeys>;

/** The issuer, or else the endpoints; exactly one of the two ways must be given. */
function readProviderLocation(
  name: string,
  prefix: string,
  read: ProviderVariable,
  problems: string[],
): ProviderLocation {
  const issuer = read('ISSUER');
  const endpointsGiven = Object.values(endpointKeys).filter((key) => read(key) !== '');
  if (endpointsGiven.length === 0) {
    if (issuer === '') {
      const endpoints = Object.values(endpointKeys).map((key) => prefix + key);
      problems.push(
        `${prefix}ISSUER: required for provider "${name}", unless it is configured by its endpoints (${endpoints.join(', ')})`,
      );
    } else if (!isSecureProviderUrl(issuer)) {
      problems.push(insecure(`${prefix}ISSUER`));
    }
    return { kind: 'issuer', issuer };
  }
  if (issuer !== '') {
    const also = endpointsGiven.map((key) => prefix + key).join(', ');
    problems.push(
      `${prefix}ISSUER: provider "${name}" is configured by its issuer or by its endpoints, not both (${also} set too)`,
    );
  }
  return { kind: 'endpoints', ...readEndpoints(name, prefix, read, problems) };
}

function readEndpoints(
  name: string,
  prefix: string,
  read: ProviderVariable,
  problems: string[],
): Record<keyof typeof endpointKeys, string> {
  const url = (key: string, why = ''): string => {
    const value = read(key);
    if (value === '') {
      problems.push(`${prefix}${key}: required for provider "${name}" without an issuer${why}`);
    } else if (!isSecureProviderUrl(value)) {
      problems.push(insecure(`${prefix}${key}`));
    }
    return value;
  };
  return {
    authorizationEndpoint: url(endpointKeys.authorizationEndpoint),
    tokenEndpoint: url(endpointKeys.tokenEndpoint),
    // Without an issuer no ID token can be checked: this endpoint says who signed in.
    userinfoEndpoint: url(endpointKeys.userinfoEndpoint, ' (it tells who signed in)'),
  };
}

function insecure(variable: string): string {
  return `${variable}: must be an https:// URL (http:// only on loopback)`;
}
