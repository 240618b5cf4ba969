// How long the suggestion pass (issue 27) holds the end of a scan: a page on 127.0.0.1 links to
// --hosts http sites (each its own port) that answer http but whose https never answers (the
// listener takes the TLS hello and stays silent), so every https-twin probe waits. Measures the
// time from the crawl's last link event to the done event (the scan's end delay), median of
// --repeat scans.
//
//   npm run build:ts && node bench/suggestion-deadline.mjs [--hosts 40] [--repeat 3]
//     [--deadline-ms N]   (the engine's suggestionDeadlineMs; its default when not given)
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '40' },
    repeat: { type: 'string', default: '3' },
    'deadline-ms': { type: 'string' },
  },
});
const { defaultScanRequest } = await import(path.join(HERE, '../packages/core/dist/index.js'));
const { crawlSettingsFor, runScan } = await import(
  path.join(HERE, '../packages/engine/dist/index.js')
);

/** An http site whose https (same port) accepts and never answers. */
async function silentHttpsHost() {
  const held = new Set();
  const site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><head><title>Plain</title></head><body>plain</body></html>');
  });
  const server = net.createServer((socket) => {
    socket.once('data', (chunk) => {
      // 0x16: a TLS handshake record. Hold it: no answer, no close.
      if (chunk[0] === 0x16) return void held.add(socket.on('error', () => {}));
      socket.pause();
      socket.unshift(chunk);
      site.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => {
      for (const socket of held) socket.destroy();
      site.close();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const hosts = await Promise.all(Array.from({ length: Number(values.hosts) }, silentHttpsHost));
const start = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end(
    `<html><body>${hosts.map((host) => `<a href="${host.url}">x</a>`).join('\n')}</body></html>`,
  );
});
await new Promise((resolve) => start.listen(0, '127.0.0.1', resolve));
const startUrl = `http://127.0.0.1:${start.address().port}/`;

const delays = [];
const totals = [];
let fixes = 0;
for (let round = 0; round < Number(values.repeat); round++) {
  let lastLink = 0;
  fixes = 0;
  const began = performance.now();
  await runScan(crawlSettingsFor(defaultScanRequest({ url: startUrl, scanDepth: 1 })), {
    suggestions: true,
    retries: 0,
    ...(values['deadline-ms'] ? { suggestionDeadlineMs: Number(values['deadline-ms']) } : {}),
    onEvent: (event) => {
      if (event.type === 'link') lastLink = performance.now();
      if (event.type === 'suggestion') fixes += 1;
    },
  });
  const ended = performance.now();
  delays.push((ended - lastLink) / 1000);
  totals.push((ended - began) / 1000);
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const seconds = (list) => list.map((value) => value.toFixed(2)).join(', ');
console.log(
  `${hosts.length} hosts, https silent: end delay ${seconds(delays)} s (median ${median(delays).toFixed(2)}), ` +
    `scan ${seconds(totals)} s, suggestions ${fixes}`,
);
start.close();
await Promise.all(hosts.map((host) => host.close()));
