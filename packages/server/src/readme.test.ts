// A newcomer finds every setting and operator command in the README (issue 37: METRICS_TOKEN,
// `voucher create` and `billing advance-clock` were missing).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentSchema } from './config.js';
import { adminUsage } from './modules/accounts/admin-command.js';
import { planUsage } from './modules/accounts/plan-command.js';
import { billingUsage, voucherUsage } from './modules/billing/billing-command.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('names every environment variable the server reads', () => {
    const missing = Object.keys(environmentSchema.shape).filter(
      (key) => !readme.includes(`\`${key}\``),
    );
    expect(missing).toEqual([]);
  });

  it('shows every operator command of the server', () => {
    const commands = [adminUsage, planUsage, billingUsage, voucherUsage]
      .flatMap((usage) => usage.split('\n'))
      .map((line) => /linkaudit-server (\w+) ([\w-]+)/.exec(line)?.slice(1, 3).join(' '))
      .map((command) => command?.replace(/\|.*/, ''));
    const missing = commands.filter((command) => !readme.includes(`npm start -- ${command}`));
    expect(missing).toEqual([]);
  });
});

describe('the install', () => {
  it('prints no engine warnings with the machine\u2019s npm (Node 20 warned 75 lines)', () => {
    // The machine's own node and npm first on the PATH, as a newcomer runs `npm ci`.
    const root = new URL('../../..', import.meta.url).pathname;
    const install = spawnSync('npm', ['install', '--dry-run', '--ignore-scripts'], {
      cwd: root,
      env: { ...process.env, PATH: `/usr/local/bin:/usr/bin:/bin:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    expect(install.status).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toContain('EBADENGINE');
  });
});
