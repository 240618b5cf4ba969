import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { planOf } from '@linkaudit/core';
import { renderingUnavailable, type EngineOptions } from '@linkaudit/engine';
import type { BuildInfo } from './build-info.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { AccessTokens, resolveJwtSecret } from './modules/accounts/access-tokens.js';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.js';
import { AccountService, type PlanState } from './modules/accounts/accounts.service.js';
import { registerExternalLoginRoutes } from './modules/accounts/external-logins.routes.js';
import { ExternalLoginService } from './modules/accounts/external-logins.service.js';
import { OidcProviders } from './modules/accounts/oidc-providers.js';
import { createMailDelivery, createMailer, mailHandler } from './modules/mail/mail.service.js';
import { OutboxWorker } from './modules/outbox/outbox-worker.js';
import { OutboxService } from './modules/outbox/outbox.service.js';
import { registerAdminRoutes } from './modules/admin/admin.routes.js';
import { AdminService } from './modules/admin/admin.service.js';
import { registerMetrics } from './modules/admin/metrics.routes.js';
import { registerBiRoutes } from './modules/bi/bi.routes.js';
import { BiService } from './modules/bi/bi.service.js';
import { BillingMails } from './modules/billing/billing-mail.js';
import { BillingRenewals } from './modules/billing/billing-renewals.js';
import { registerBillingRoutes } from './modules/billing/billing.routes.js';
import { BillingService } from './modules/billing/billing.service.js';
import { createGateway } from './modules/billing/gateway-factory.js';
import { startPostgresRelay } from './modules/realtime/postgres-relay.js';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes.js';
import { registerSystemRoutes } from './modules/system/system.routes.js';
import { HeavyReadLimiter } from './modules/reports/heavy-reads.js';
import { databaseRateLimitStore } from './modules/limits/rate-limit-store.js';
import { SharedHeavyReadGate } from './modules/limits/shared-heavy-reads.js';
import { registerReportRoutes } from './modules/reports/reports.routes.js';
import { registerSpellingRoutes } from './modules/spelling/spelling.routes.js';
import { registerTriageRoutes } from './modules/reports/triage.routes.js';
import { TriageService } from './modules/reports/triage.service.js';
import { SpellingService } from './modules/spelling/spelling.service.js';
import { ReportService } from './modules/reports/reports.service.js';
import { SampleReportService } from './modules/sample-report/sample-report.service.js';
import { registerSampleSiteRoutes } from './modules/sample-report/sample-site.routes.js';
import { scanEngine, type ScanEngine } from './modules/scans/scan-engine.js';
import { ScanUpdates } from './modules/scans/scan-updates.js';
import { queueFairness } from './modules/scans/queue-fairness.js';
import { ScanWorkers } from './modules/scans/scan-workers.js';
import { registerScanRoutes } from './modules/scans/scans.routes.js';
import { ScanService } from './modules/scans/scans.service.js';
import { resolveSecretsKey, SecretBox } from './modules/scans/secret-box.js';
import { sealClearCredentials } from './modules/scans/credential-sealing.js';
import { ChangeNotifier } from './modules/schedules/change-notifier.js';
import { Scheduler } from './modules/schedules/scheduler.js';
import { registerScheduleRoutes } from './modules/schedules/schedules.routes.js';
import { ScheduleService } from './modules/schedules/schedules.service.js';
import { registerAuthentication } from './plugins/authentication.js';
import { HttpError, registerErrorHandler } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';

declare module 'fastify' {
  interface FastifyInstance {
    scanWorkers: ScanWorkers;
    scheduler: Scheduler;
    billingRenewals: BillingRenewals;
    billing: BillingService;
  }
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  buildInfo: BuildInfo;
  /** Tests move time with their own clock. */
  clock?: Clock;
  /** Scans this process runs at once; default config.scans.workerConcurrency (0: none). */
  workerConcurrency?: number;
  /** Tests shorten the engine's retries and timeouts. */
  engineOptions?: Partial<EngineOptions>;
  /** How often idle workers look at the queue (ms). */
  workerPollMs?: number;
  /** Whether this process fires due schedules (roles all and scheduler); default true. */
  runsScheduler?: boolean;
  /** Lets a test watch the scans run (it wraps the engine) without changing what they do. */
  observeEngine?: (engine: ScanEngine) => ScanEngine;
}

/** Believes the last `hops` proxies in front of the server (proxy-addr's hop count). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** Wires plugins and modules into one Fastify instance; it does not listen (tests choose a port). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: { level: config.logLevel },
    // Client addresses (rate limits, logs) come from X-Forwarded-For only behind a known proxy.
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // SPEC's paths come from a server that matched them in any case (/api/Account/…, /api/account/…).
    routerOptions: { caseSensitive: false },
    // One line per request is noise at info level; debug and trace keep it.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(helmet, {
    // Sent by onlyOverHttps below: over plain HTTP the header means nothing and misleads.
    strictTransportSecurity: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        upgradeInsecureRequests: null,
      },
    },
  });
  sendHstsOverHttpsOnly(app);
  await app.register(cookie);
  await app.register(formbody);
  // Per route (sign-in, register, forgot, reset), per client address: in this process's memory
  // on the embedded server, in the database that every api process shares in the scaled mode.
  const scaled = database.dialect === 'postgres';
  await app.register(rateLimit, {
    global: false,
    ...(scaled ? { store: databaseRateLimitStore(database.db, clock) } : {}),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests. Please try again in ${context.after}.`),
  });

  const { mailer, outbox, outboxWorker } = mailThroughOutbox(app, config, database);

  const tokens = new AccessTokens(resolveJwtSecret(config.auth.jwtSecret, config.dataDir), clock);
  const accounts = new AccountService({
    db: database.db,
    clock,
    mailer,
    config,
    tokens,
    planState: (userId): Promise<PlanState> => billing.state(userId),
  });
  const externalLogins = new ExternalLoginService({
    db: database.db,
    clock,
    publicUrl: config.publicUrl,
    tokens,
    providers: new OidcProviders(config.auth.externalProviders, config.publicUrl),
    accounts,
    log: app.log,
  });
  registerAuthentication(app, (token) => accounts.authenticate(token));

  // Issue 36: a past-due account starts no scan, by hand or by schedule.
  const pastDue = async (userId: string): Promise<boolean> =>
    (await billing.state(userId)).paymentFailed;
  const policy = {
    allowPrivate: config.allowPrivateTargets,
    allowedHosts: config.scans.allowedHosts,
  };
  const updates = new ScanUpdates();
  const secrets = new SecretBox(resolveSecretsKey(config.scanSecretsKey, config.dataDir));
  await sealClearCredentials(database.db, secrets);
  const samples = new SampleReportService({
    db: database.db,
    clock,
    policy,
    wakeWorkers: () => workers.wake(),
  });
  if (database.dialect === 'postgres' && config.databaseUrl) {
    const stopRelay = await startPostgresRelay(database, config.databaseUrl, updates, app.log);
    app.addHook('onClose', stopRelay);
  }
  const workers = new ScanWorkers({
    database,
    clock,
    secrets,
    log: app.log,
    updates,
    policy,
    engine: (deps.observeEngine ?? ((engine: ScanEngine) => engine))(
      scanEngine(config.scans.isolation),
    ),
    leaseSeconds: config.scans.leaseSeconds,
    retry: { maxAttempts: config.scans.maxAttempts, backoffMs: config.scans.retryBackoffMs },
    fairness: queueFairness(config.scans.runningPerUser),
    workerId: config.scans.workerId,
    policyFor: (scan) => samples.policyFor(scan),
    onFinished: (scanId) => changeNotifier.afterRun(scanId),
    finishing: (scanId) => reports.storeFinished(scanId),
    engineOptions: {
      requestDeadlineMs: config.scans.requestDeadlineSeconds * 1000,
      ...(config.scans.chromiumPath ? { render: { chromiumPath: config.scans.chromiumPath } } : {}),
      ...deps.engineOptions,
    },
    ...(deps.workerPollMs ? { pollMs: deps.workerPollMs } : {}),
  });
  const scans = new ScanService({
    db: database.db,
    clock,
    secrets,
    policy,
    lookup: deps.engineOptions?.lookup,
    updates,
    wakeWorkers: () => workers.wake(),
    ownerPlan: async (userId) => planOf((await accounts.findUser(userId))?.paidPlanId),
    creditPeriodStart: (userId): Promise<Date | null> => billing.creditPeriodStart(userId),
    scheduleUrls: (userId, exceptScheduleId): Promise<string[]> =>
      schedules.urls(userId, exceptScheduleId),
    siteWords: (userId, site): Promise<string[]> => spelling.wordsOf(userId, site),
    paymentFailed: pastDue,
  });
  const spelling = new SpellingService({ db: database.db, clock, scans });
  const triage = new TriageService({ db: database.db, clock, scans });
  const reports = new ReportService({
    db: database.reportDb,
    exportDb: database.exportDb,
    marksDb: database.db,
    writeDb: database.db,
    scans,
    samples,
  });
  const schedules = new ScheduleService({ db: database.db, clock, scans });
  const payments = createGateway(config, database.db, clock, app.log);
  const billing = new BillingService({
    db: database.db,
    gateway: payments.gateway,
    now: payments.now,
    clock,
    accounts,
    schedules,
    mails: new BillingMails({ mailer, accounts, publicUrl: config.publicUrl }),
    log: app.log,
  });
  const billingRenewals = new BillingRenewals({
    sandbox: payments.sandbox,
    log: app.log,
    intervalMs: config.scans.schedulerIntervalSeconds * 1000,
  });
  const changeNotifier = new ChangeNotifier({
    db: database.db,
    scans,
    accounts,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const scheduler = new Scheduler({
    db: database.db,
    clock,
    log: app.log,
    schedules,
    accounts,
    paymentFailed: pastDue,
    intervalMs: config.scans.schedulerIntervalSeconds * 1000,
  });
  app.decorate('scanWorkers', workers);
  app.decorate('scheduler', scheduler);
  app.decorate('billingRenewals', billingRenewals);
  app.decorate('billing', billing);
  app.addHook('onReady', () => {
    outboxWorker.start();
    workers.start(deps.workerConcurrency ?? config.scans.workerConcurrency);
    if (deps.runsScheduler ?? true) {
      scheduler.start();
      billingRenewals.start();
    }
    return Promise.resolve();
  });
  app.addHook('onClose', () => scheduler.stop());
  app.addHook('onClose', () => billingRenewals.stop());
  app.addHook('onClose', () => workers.stop());
  // After the workers: a scan that finished while they stopped may still queue its mail.
  app.addHook('onClose', () => outboxWorker.stop());
  if (config.sampleReport.enabled) queueSampleScanOnListen(app, samples, config);

  registerSystemRoutes(app, {
    ...deps,
    startedAt: Date.now(),
    privateTargets: policy.allowPrivate || policy.allowedHosts.length > 0,
    renderingUnavailable: renderingUnavailable(config.scans.chromiumPath),
  });
  registerScanRoutes(app, {
    scans,
    submitScheduled: (user, request) => schedules.submit(user, request),
  });
  registerScheduleRoutes(app, { schedules });
  registerSpellingRoutes(app, spelling);
  registerTriageRoutes(app, triage);
  // Report reads per user: report tabs, summaries and OData feed pages share one limit.
  const heavyReads = scaled
    ? new SharedHeavyReadGate(database.db, 'report', config.reportReads)
    : new HeavyReadLimiter(config.reportReads);
  registerReportRoutes(app, {
    reports,
    heavyReads,
    exportReads: scaled
      ? new SharedHeavyReadGate(database.db, 'export', config.reportExports)
      : new HeavyReadLimiter(config.reportExports),
  });
  if (config.sampleReport.enabled) registerSampleSiteRoutes(app);
  await registerBiRoutes(app, {
    heavyReads,
    bi: new BiService({
      db: database.db,
      reportDb: database.reportDb,
      clock,
      scans,
      samples,
      publicUrl: config.publicUrl,
    }),
  });
  const admin = new AdminService({
    db: database.db,
    clock,
    scans,
    accounts,
    schedules,
    mailFailures: () => mailer.failures?.() ?? { count: 0, last: null },
    outbox,
  });
  registerAdminRoutes(app, { scans, admin });
  registerMetrics(app, {
    health: () => admin.health(),
    token: config.metricsToken,
    allowedAddresses: config.metricsAllowedAddresses,
  });
  await registerRealtimeRoutes(app, {
    authenticate: (token) => accounts.authenticate(token),
    updates,
  });
  registerAccountRoutes(app, { accounts, rateLimitPerMinute: config.auth.rateLimitPerMinute });
  registerBillingRoutes(app, {
    billing,
    gateway: payments.gateway,
    sandbox: payments.sandbox,
    publishableKey: config.billing.stripeEnvironment.STRIPE_PUBLISHABLE_KEY ?? null,
    rateLimitPerMinute: config.auth.rateLimitPerMinute,
    auditVoucher: (user, action, code, before, after) =>
      admin.audit(user, action, 'voucher', code, before, after),
  });
  registerExternalLoginRoutes(app, {
    externalLogins,
    secureCookies: config.publicUrl.startsWith('https:'),
  });
  await registerWebApp(app, config.webDistDir);
  return app;
}

/**
 * Mail goes through the outbox (issue 36): the mailer writes rows, every process's outbox worker
 * sends them (SMTP, or the DATA_DIR/mail folder) with retries. The worker is started once the app
 * is ready and stopped after the scan workers.
 */
function mailThroughOutbox(app: FastifyInstance, config: Config, database: DatabaseHandle) {
  const delivery = createMailDelivery({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, 'mail'),
    log: app.log,
  });
  const outboxWorker = new OutboxWorker({
    database,
    log: app.log,
    handlers: { mail: mailHandler(delivery, new URL(config.publicUrl).hostname) },
    ...config.outbox,
  });
  const outbox = new OutboxService({ db: database.db });
  const mailer = createMailer({
    outbox,
    delivery,
    wakeOutbox: () => outboxWorker.wake(),
    log: app.log,
  });
  return { mailer, outbox, outboxWorker };
}

/** Helmet's HSTS value (a year, subdomains too). */
const hstsValue = 'max-age=31536000; includeSubDomains';

/**
 * Strict-Transport-Security only on answers that went out over https (RFC 6797 §7.2: a host
 * must not send it over plain HTTP). Behind a trusted proxy (TRUST_PROXY) `request.protocol`
 * follows X-Forwarded-Proto; otherwise an untrusted client cannot fake it with that header.
 */
function sendHstsOverHttpsOnly(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') void reply.header('strict-transport-security', hstsValue);
    done(null, payload);
  });
}

/**
 * At the first start that listens (an api or all process; a worker never does), queue the scan of
 * the server's own demo site: at PUBLIC_URL when given, else at the address it listens on.
 */
function queueSampleScanOnListen(
  app: FastifyInstance,
  samples: SampleReportService,
  config: Config,
): void {
  let queueing: Promise<unknown> = Promise.resolve();
  app.addHook('onListen', (done) => {
    const origin = config.sampleReport.origin ?? listeningOrigin(app) ?? config.publicUrl;
    queueing = samples.ensureQueued(origin).then(
      (scanId) => app.log.info({ scanId }, 'sample report scan'),
      (error: unknown) => app.log.error({ err: error }, 'queueing the sample scan failed'),
    );
    done();
  });
  app.addHook('onClose', () => queueing.then(() => undefined));
}

/** http://host:port of the listening socket; a wildcard address is reached through loopback. */
function listeningOrigin(app: FastifyInstance): string | undefined {
  const address = app.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '::1'
        : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
