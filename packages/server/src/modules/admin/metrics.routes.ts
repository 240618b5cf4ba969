import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { adminMessages, type AdminHealth } from '@linkaudit/core';
import { HttpError } from '../../plugins/error-handler.js';

export interface MetricsDeps {
  health: () => Promise<AdminHealth>;
  /** METRICS_TOKEN: asked for as a bearer token; without it only direct callers are answered. */
  token: string | undefined;
  /**
   * METRICS_ALLOWED_ADDRESSES: addresses or CIDR ranges answered without a token besides
   * loopback (a Prometheus server on the private network), when they call directly.
   */
  allowedAddresses?: readonly string[];
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
    allowed(request, deps.token, deps.allowedAddresses ?? []);
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
 * With a token: the same bearer token (compared in constant time). Without: a direct caller only
 * (`isDirectCaller`).
 */
function allowed(
  request: FastifyRequest,
  token: string | undefined,
  allowedAddresses: readonly string[],
): void {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) throw new HttpError(401, adminMessages.metricsToken);
    return;
  }
  const caller = { headers: request.headers, remoteAddress: request.socket.remoteAddress ?? '' };
  if (!isDirectCaller(caller, allowedAddresses)) {
    throw new HttpError(403, adminMessages.metricsLoopback);
  }
}

/**
 * Headers a proxy adds. A request carrying any of them came through a proxy, and a proxy on this
 * machine (nginx's `proxy_set_header X-Real-IP` recipe sets only that one) would make every
 * visitor look local, so none of them is believed: such a request is simply not direct.
 */
function cameThroughProxy(headers: IncomingHttpHeaders): boolean {
  return Object.keys(headers).some(
    (name) =>
      name === 'x-real-ip' ||
      name === 'via' ||
      name === 'forwarded' ||
      name.startsWith('x-forwarded-'),
  );
}

/**
 * A caller /metrics answers without a token: it connected from loopback, or from one of the
 * operator's allowed addresses (an address or a CIDR range), and carries no proxy header.
 */
export function isDirectCaller(
  caller: { headers: IncomingHttpHeaders; remoteAddress: string },
  allowedAddresses: readonly string[],
): boolean {
  if (cameThroughProxy(caller.headers) || !ipaddr.isValid(caller.remoteAddress)) return false;
  let address = ipaddr.parse(caller.remoteAddress);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  if (address.range() === 'loopback') return true;
  return allowedAddresses.some((entry) => {
    const [range, bits] = entry.includes('/')
      ? ipaddr.parseCIDR(entry)
      : [ipaddr.parse(entry), address.kind() === 'ipv4' ? 32 : 128];
    return range.kind() === address.kind() && address.match(range, bits);
  });
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
