import { Pool } from 'undici';
import { apiClient, signIn } from './api-client.mjs';
import { benchServerEnvironment, freePort, startServer, stopServer } from './server-process.mjs';
const port = await freePort();
const env = benchServerEnvironment('/work/loaddata-probe', port);
const { child, origin } = await startServer(env);
const pool = new Pool(origin, { connections: 4 });
const api = apiClient(pool);
const token = await signIn(api, 'load@example.com');
const id = '78c27a2b-33f0-4006-9b14-a45d7cac1da0';
const urls = [];
for (const page of [3000, 3001, 4500, 100, 6000, 6700, 2000, 2001]) urls.push(`/api/report/link/${id}?status=all&page=${page}`);
for (const page of [10, 900, 1999, 2000]) urls.push(`/api/report/page/${id}?page=${page}`);

for (const url of urls) {
  const t = performance.now();
  const r = await pool.request({ method: 'GET', path: url, headers: { authorization: `Bearer ${token}` } });
  const body = await r.body.text();
  console.log(r.statusCode, (performance.now() - t).toFixed(0).padStart(6), 'ms', body.length, url.replace(id, '{id}'));
}
await pool.close();
await stopServer(child);
