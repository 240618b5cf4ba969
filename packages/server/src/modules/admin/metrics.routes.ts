import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { adminMessages, type AdminHealth } from '@linkaudit/core';
import { HttpError } from '../../plugins/error-handler.js';

export interface MetricsDeps {
  health: () => Promise<AdminHealth>;
  /** METRICS_TOKEN: asked for as a bearer token; without it only loopback clients are answered. */
  token: string | undefined;
}

/**
 * GET /metrics in Prometheus' text format (prom-client): the admin health figures, HTTP latencies
 * per route, and the process's own (memory, event loop, CPU). One registry per app, so test
 * servers in one process do not share figures.
 */
export function registerMetrics(app: FastifyInstance, deps: MetricsDeps): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'linkaudit_' });
  const latency = new Histogram({
    name: 'linkaudit_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const gauges = healthGauges(registry);
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw path: ids would make a series per scan.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', async (request, reply) => {
    allowed(request, deps.token);
    gauges.set(await deps.health());
    void reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

function healthGauges(registry: Registry) {
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const scans = gauge('linkaudit_scans', 'Scans (not trashed) by status code', ['status']);
  const running = gauge('linkaudit_scans_held', 'Scans held per worker process', ['worker']);
  const expiries = gauge('linkaudit_lease_expiries_24h', 'Scan leases that ran out in 24 h');
  const requeues = gauge('linkaudit_requeues_24h', 'Scans sent back to the queue in 24 h');
  const tick = gauge(
    'linkaudit_scheduler_last_tick_seconds',
    'Unix time of the last scheduler tick (0: none yet)',
  );
  const mail = gauge('linkaudit_mail_failures', 'Mails this process could not send');
  const outbox = gauge('linkaudit_outbox', 'Outgoing messages (mail) not sent, by state', [
    'state',
  ]);
  const queueAge = gauge(
    'linkaudit_queue_oldest_age_seconds',
    'How long the longest-waiting queued scan has waited (0: none queued)',
  );
  const retries = gauge(
    'linkaudit_scans_waiting_retry',
    'Queued scans waiting out the backoff of a retry (lost lease, engine exception)',
  );
  return {
    set(health: AdminHealth) {
      scans.reset();
      for (const row of health.queueDepth) scans.set({ status: String(row.status) }, row.count);
      running.reset();
      for (const row of health.runningByWorker) running.set({ worker: row.worker }, row.count);
      expiries.set(health.leaseExpiries24h);
      requeues.set(health.requeues24h);
      tick.set(health.schedulerLastTick ? Date.parse(health.schedulerLastTick) / 1000 : 0);
      mail.set(health.mailFailures);
      const oldest = health.oldestQueuedAt ? Date.parse(health.oldestQueuedAt) : Date.now();
      queueAge.set(Math.max(0, (Date.now() - oldest) / 1000));
      retries.set(health.waitingForRetry);
      outbox.set({ state: 'pending' }, health.outboxPending);
      outbox.set({ state: 'failed' }, health.outboxFailed);
    },
  };
}

/**
 * With a token: the same bearer token (compared in constant time). Without: a loopback client
 * that came through no proxy (a proxy on this machine would make every visitor look local).
 */
function allowed(request: FastifyRequest, token: string | undefined): void {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) throw new HttpError(401, adminMessages.metricsToken);
    return;
  }
  const forwarded = request.headers['x-forwarded-for'] ?? request.headers.forwarded;
  const address = request.socket.remoteAddress ?? '';
  const loopback =
    address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  if (!loopback || forwarded !== undefined) throw new HttpError(403, adminMessages.metricsLoopback);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
