import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../plugins/error-handler.js';

/** docs/rules/<id>.md of the repository (from src/ or dist/ alike). */
const rulePagesDir = path.resolve(import.meta.dirname, '../../../../../docs/rules');

export const rulePageMessages = {
  notFound: 'There is no explanation page for this rule.',
} as const;

/**
 * GET /rules/{id}: a rule's explanation page, the catalogue's ruleURL (report rule rows link to
 * it). The page is Markdown written to read well as it is, so it is served as plain text.
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
        return reply.type('text/plain; charset=utf-8').send(text);
      },
    );
}
