import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { marked } from 'marked';
import { z } from 'zod';
import { HttpError } from '../../plugins/error-handler.js';

/** docs/rules/<id>.md of the repository (from src/ or dist/ alike). */
export const rulePagesDir = path.resolve(import.meta.dirname, '../../../../../docs/rules');

export const rulePageMessages = {
  notFound: 'There is no explanation page for this rule.',
} as const;

/** The page a browser gets: the Markdown made HTML, readable without the web app's scripts. */
export function rulePageHtml(markdown: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Rule';
  // Our own files from the repository, not user input; marked escapes the text it is given.
  const body = marked.parse(markdown, { async: false, gfm: true });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · LinkAudit</title>
<style>
  body { font: 16px/1.6 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif;
    color: #1f2328; background: #f6f8fa; margin: 0; }
  main { max-width: 46rem; margin: 2rem auto; padding: 2rem 2.5rem; background: #fff;
    border: 1px solid #d0d7de; border-radius: 8px; }
  h1 { font-size: 1.6rem; margin-top: 0; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  code { background: #eff1f3; padding: 0.1em 0.35em; border-radius: 4px; font-size: 0.9em; }
  pre { background: #eff1f3; padding: 1rem; border-radius: 6px; overflow-x: auto; }
  pre code { background: none; padding: 0; }
  nav { max-width: 46rem; margin: 1rem auto 0; padding: 0 0.5rem; }
  a { color: #0969da; }
</style>
</head>
<body>
<nav><a href="/">LinkAudit</a></nav>
<main>
${body}
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * GET /rules/{id}: a rule's explanation page, the catalogue's ruleURL (report rule rows link to
 * it). A browser (Accept: text/html) gets it as an HTML page; any other client the Markdown it is
 * written in, as plain text.
 */
export function registerRulePageRoute(app: FastifyInstance): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/rules/:id',
      { schema: { params: z.object({ id: z.string().regex(/^\d{1,9}$/) }) } },
      async (request, reply) => {
        let text: string;
        try {
          text = await readFile(path.join(rulePagesDir, `${request.params.id}.md`), 'utf8');
        } catch {
          throw new HttpError(404, rulePageMessages.notFound);
        }
        void reply.header('vary', 'Accept');
        if (request.headers.accept?.includes('text/html')) {
          return reply.type('text/html; charset=utf-8').send(rulePageHtml(text));
        }
        return reply.type('text/plain; charset=utf-8').send(text);
      },
    );
}
