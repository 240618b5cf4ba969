import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { isDirectCaller } from './metrics.routes.js';

describe('who /metrics answers without METRICS_TOKEN', () => {
  const direct = (remoteAddress: string, headers = {}, allowed: string[] = []) =>
    isDirectCaller({ remoteAddress, headers }, allowed);

  it('answers loopback callers that came through no proxy', () => {
    expect(direct('127.0.0.1')).toBe(true);
    expect(direct('::1')).toBe(true);
    expect(direct('::ffff:127.0.0.1')).toBe(true);
    expect(direct('10.1.2.3')).toBe(false);
    expect(direct('127.0.0.1', { 'x-real-ip': '203.0.113.9' })).toBe(false);
    expect(direct('127.0.0.1', { via: '1.1 nginx' })).toBe(false);
    expect(direct('127.0.0.1', { 'x-forwarded-proto': 'https' })).toBe(false);
  });

  it('answers the operator’s further addresses and ranges, directly only', () => {
    const allowed = ['10.0.0.0/8', '192.0.2.7', 'fd00::/8'];
    expect(direct('10.1.2.3', {}, allowed)).toBe(true);
    expect(direct('::ffff:10.1.2.3', {}, allowed)).toBe(true);
    expect(direct('192.0.2.7', {}, allowed)).toBe(true);
    expect(direct('fd00::5', {}, allowed)).toBe(true);
    expect(direct('192.0.2.8', {}, allowed)).toBe(false);
    expect(direct('10.1.2.3', { 'x-real-ip': '10.1.2.3' }, allowed)).toBe(false);
  });

  it('reads METRICS_ALLOWED_ADDRESSES and refuses what is not an address or range', () => {
    expect(loadConfig({ METRICS_ALLOWED_ADDRESSES: '10.0.0.0/8, 192.0.2.7' })).toMatchObject({
      metricsAllowedAddresses: ['10.0.0.0/8', '192.0.2.7'],
    });
    expect(() => loadConfig({ METRICS_ALLOWED_ADDRESSES: 'prometheus.internal' })).toThrow(
      /METRICS_ALLOWED_ADDRESSES/,
    );
  });
});
