// Issue 25's readable rule report on a real documentation site: scans an installed corpus site
// (../corpus/sites.mjs, its Debian package; default docbook-xsl, 1,087 HTML pages) through the
// built server with every rule on, then reads the rule tab's grouped view (ruleCounts, then every
// rule's ruleGroups) and prints, per rule, rows (findings) against groups, and the totals: what a
// reader of the flat rule tab pages through, against what the grouped view shows.
//
//   npm run build:ts && node bench/rule-groups.mjs [--site docbook-xsl]
//   (the site's package installed: apt-get install docbook-xsl-doc-html)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { filesWithFaults, siteNamed } from '../corpus/sites.mjs';
import { serveSite } from '../corpus/static-site.mjs';
import { apiClient, signUp, waitForScan } from './api-client.mjs';
import { benchServerEnvironment, freePort, startServer, stopServer } from './server-process.mjs';

const { values: options } = parseArgs({
  options: { site: { type: 'string', default: 'docbook-xsl' } },
});

const site = siteNamed(options.site);
if (!existsSync(site.installed)) {
  throw new Error(`${site.installed} is missing: apt-get install ${site.package}`);
}
const served = await serveSite(filesWithFaults(site, site.installed));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-rule-groups-'));
const environment = benchServerEnvironment(dataDir, await freePort());
const { child, origin } = await startServer(environment);
const pool = new Pool(origin, { connections: 4 });
const api = apiClient(pool);
try {
  const token = await signUp(api, environment, 'bench@example.com');
  const rules = await api.get('/api/ScanRuleApi/', token);
  const created = await api.post(
    '/api/ScanApi/',
    {
      scanSettings: {
        url: served.url(site.start),
        scanDepth: 3,
        scanLimitOption: 1,
        maxLinkAmount: 100_000,
        maxDepth: 1000,
        selectedRules: rules.map((rule) => rule.linkAuditorRuleID),
      },
    },
    token,
  );
  const scan = await waitForScan(api, token, created.id, 900_000);
  const summary = await api.get(`/api/report/summary/${scan.id}`, token);
  const rows = (await api.get(`/api/report/ruleResult/${scan.id}?pageSize=1`, token)).total;
  const counts = await api.get(`/api/report/ruleCounts/${scan.id}`, token);
  const perRule = [];
  for (const rule of counts.rules) {
    const groups = await api.get(
      `/api/report/ruleGroups/${scan.id}?ruleId=${rule.ruleId}&pageSize=1`,
      token,
    );
    perRule.push({ ...rule, groupsListed: groups.total });
  }
  const groups = perRule.reduce((sum, rule) => sum + rule.groupsListed, 0);
  console.log(`${site.name}: ${summary.numPages} pages, status ${scan.status}`);
  console.log('rule  findings  pages  groups  name');
  for (const rule of perRule) {
    console.log(
      `${rule.ruleId.padEnd(5)} ${String(rule.findings).padStart(8)} ${String(rule.pages).padStart(6)} ${String(rule.groupsListed).padStart(7)}  ${rule.ruleName}`,
    );
  }
  console.log(
    `rows (flat rule tab, CSV): ${rows}; rules with findings: ${perRule.length}; groups: ${groups}`,
  );
} finally {
  await pool.close();
  await stopServer(child);
  await served.close();
  rmSync(dataDir, { recursive: true, force: true });
}
