// The CLI as other projects' CI uses it (issue 38): packed as one npm package and installed alone
// in an empty folder; the GitLab CI template's script and the GitHub Action's steps run as their
// runners run them, against a site on 127.0.0.1. npm installs from a registry on loopback that
// serves the workspace's locked packages from npm's cache, so no request leaves the machine.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLoopbackRegistry, type LoopbackRegistry } from './loopback-registry.js';
import { packCli } from './pack-cli.mjs';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; its exit code instead of a rejection. */
async function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, { ...options, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A two-page site: the home page links its about page (200) and a missing page (404). */
function startSite(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        '<!doctype html><title>Home</title><a href="/about">About</a>\n<a href="/gone">Gone</a>',
      );
    } else if (request.url === '/about') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>About</title><a href="/">Home</a>');
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-ci-recipes-'));
let registry: LoopbackRegistry;
let site: Server;
let origin = '';
let tarball = '';

beforeAll(async () => {
  registry = await startLoopbackRegistry(path.join(root, 'package-lock.json'));
  site = await startSite();
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // Builds the workspace (once for every test here) and packs the CLI.
  tarball = packCli(path.join(work, 'pack'));
}, 120_000);
afterAll(async () => {
  await registry.close();
  site.closeAllConnections();
  site.close();
  // (Three installs and npm's cache: thousands of files, seconds on a busy machine.)
  await rm(work, { recursive: true, force: true });
}, 120_000);

/** An empty project folder of someone else's, with npm pointed at the loopback registry. */
function emptyProject(name: string): { folder: string; env: NodeJS.ProcessEnv } {
  const folder = path.join(work, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), `{"name":"${name}","private":true}\n`);
  // A cache of these tests' own (not the workspace's): the first install fetches every package
  // from the loopback registry, later ones may reuse what it fetched.
  const env = {
    ...process.env,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(work, 'npm-cache'),
  };
  return { folder, env };
}

describe('the packed CLI (npm pack), installed alone in an empty folder', () => {
  it('installs from its tarball with npm and scans a site', async () => {
    const { folder, env } = emptyProject('someone-else');
    const install = await run('npm', ['install', '--no-audit', '--no-fund', tarball], {
      cwd: folder,
      env,
    });
    expect(install.code, install.stderr).toBe(0);
    expect(registry.missing).toEqual([]);

    const scan = await run(path.join(folder, 'node_modules', '.bin', 'linkaudit'), [
      'scan',
      `${origin}/`,
      '--format',
      'json',
      '--quiet',
    ]);
    // Exit code 1: the scan found a broken link.
    expect(scan.code, scan.stderr).toBe(1);
    const report = JSON.parse(scan.stdout) as { status: string; broken: Array<{ url: string }> };
    expect(report.status).toBe('Complete');
    expect(report.broken.map((link) => link.url)).toEqual([`${origin}/gone`]);
  }, 180_000);
});

describe('the GitLab CI template', () => {
  interface GitlabJob {
    image: string;
    variables: Record<string, string>;
    script: string[];
    artifacts: { paths: string[]; reports: { junit: string } };
  }
  const template = parse(
    readFileSync(path.join(root, 'ci-templates/gitlab/linkaudit.gitlab-ci.yml'), 'utf8'),
  ) as Record<string, GitlabJob>;

  /** The job's script as the runner runs it: one shell, stopping at the first failing line. */
  function runJob(variables: Record<string, string>, name: string) {
    const { folder, env } = emptyProject(name);
    const job = template['.linkaudit']!;
    return run('bash', ['-e', '-c', job.script.join('\n')], {
      cwd: folder,
      env: { ...env, ...job.variables, ...variables },
    }).then((outcome) => ({ ...outcome, folder }));
  }

  it('installs the packed CLI, writes SARIF and fails the job on a broken link', async () => {
    const job = await runJob({ LINKAUDIT_URL: `${origin}/`, LINKAUDIT_PACKAGE: tarball }, 'gitlab');
    expect(job.code, job.stderr).toBe(1);
    const sarif = JSON.parse(readFileSync(path.join(job.folder, 'linkaudit.sarif'), 'utf8')) as {
      version: string;
      runs: Array<{ results: Array<{ message: { text: string } }> }>;
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.results.map((result) => result.message.text).join('\n')).toContain(
      `${origin}/gone`,
    );
    expect(template['.linkaudit']!.artifacts.paths).toContain('linkaudit.sarif');
  }, 180_000);

  it('with LINKAUDIT_FORMAT junit writes the report the merge request shows', async () => {
    const job = await runJob(
      {
        LINKAUDIT_URL: `${origin}/about`,
        LINKAUDIT_ARGS: '--depth page',
        LINKAUDIT_FORMAT: 'junit',
        LINKAUDIT_PACKAGE: tarball,
      },
      'gitlab-junit',
    );
    // Nothing broken on the about page alone: the job passes.
    expect(job.code, job.stderr).toBe(0);
    const junit = template['.linkaudit']!.artifacts.reports.junit;
    expect(readFileSync(path.join(job.folder, junit), 'utf8')).toMatch(/<testsuites?[\s>]/);
  }, 180_000);

  it('says what to set when LINKAUDIT_URL is missing', async () => {
    const job = await runJob({ LINKAUDIT_PACKAGE: tarball }, 'gitlab-unset');
    expect(job.code).toBe(2);
    expect(job.stdout).toContain('Set LINKAUDIT_URL');
  });
});

describe('the GitHub Action (action.yml)', () => {
  interface Step {
    id?: string;
    shell?: string;
    env?: Record<string, string>;
    run?: string;
  }
  const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string; required?: boolean }>;
    runs: { using: string; steps: Step[] };
  };

  /** A step's env with the runner's expressions filled in: inputs, the action path, outputs. */
  function environmentOf(step: Step, inputs: Record<string, string>, outputs: string): object {
    const fill = (value: string) =>
      value
        .replaceAll('${{ github.action_path }}', root)
        .replace(/\$\{\{ inputs\.([\w-]+) \}\}/g, (_, name: string) => {
          return inputs[name] ?? action.inputs[name]?.default ?? '';
        })
        .replace(/\$\{\{ steps\.scan\.outputs\.([\w-]+) \}\}/g, (_, name: string) => {
          return new RegExp(`^${name}=(.*)$`, 'm').exec(outputs)?.[1] ?? '';
        });
    return Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
  }

  /** Runs the scan step, then the verdict step, as a runner's bash runs them. */
  async function runAction(inputs: Record<string, string>, name: string) {
    const folder = path.join(work, name);
    mkdirSync(folder, { recursive: true });
    const outputFile = path.join(folder, 'github-output');
    writeFileSync(outputFile, '');
    const stepRun = async (id: string) => {
      const step = action.runs.steps.find((candidate) => candidate.id === id)!;
      expect(step.shell).toBe('bash');
      const env = {
        ...process.env,
        GITHUB_OUTPUT: outputFile,
        ...environmentOf(step, inputs, readFileSync(outputFile, 'utf8')),
      };
      return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
        cwd: folder,
        env,
      });
    };
    const scan = await stepRun('scan');
    const verdict = await stepRun('verdict');
    return { folder, scan, verdict, outputs: readFileSync(outputFile, 'utf8') };
  }

  it('is a composite action whose inputs reach the scan only as environment variables', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.url?.required).toBe(true);
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });

  it('writes SARIF for code scanning and fails the job on a broken link', async () => {
    const { folder, scan, verdict, outputs } = await runAction({ url: `${origin}/` }, 'github');
    expect(scan.code, scan.stderr).toBe(0);
    expect(outputs).toContain('exit-code=1');
    expect(verdict.code).toBe(1);
    const sarif = readFileSync(path.join(folder, 'linkaudit.sarif'), 'utf8');
    expect(JSON.parse(sarif)).toMatchObject({ version: '2.1.0' });
    expect(sarif).toContain(`${origin}/gone`);
  }, 60_000);

  it('passes with a warning when fail-on-broken is off, never when the scan failed', async () => {
    const off = await runAction({ url: `${origin}/`, 'fail-on-broken': 'false' }, 'github-off');
    expect(off.outputs).toContain('exit-code=1');
    expect(off.verdict.code).toBe(0);
    expect(off.verdict.stdout).toContain('::warning::');

    // A report it cannot write (no such folder) fails the scan: exit 2, whatever the setting.
    const failed = await runAction(
      { url: `${origin}/`, 'fail-on-broken': 'false', 'sarif-file': 'no/such/folder.sarif' },
      'github-failed',
    );
    expect(failed.outputs).toContain('exit-code=2');
    expect(failed.scan.stdout).toContain('::error::');
    expect(failed.verdict.code).toBe(2);
    expect(existsSync(path.join(failed.folder, 'no'))).toBe(false);
  }, 60_000);

  it('passes its args to the scan', async () => {
    const onePage = await runAction(
      { url: `${origin}/about`, args: '--depth page --max-links 10' },
      'github-args',
    );
    expect(onePage.outputs).toContain('exit-code=0');
    expect(onePage.verdict.code).toBe(0);
  }, 60_000);
});
