import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/**
 * The one error shape of SPEC §8: `message`, plus `modelState` (field → messages) for invalid
 * input. Details of server faults are logged, never sent.
 */
export interface ErrorBody {
  message: string;
  modelState?: Record<string, string[]>;
  exceptionMessage?: string;
  error_description?: string;
}

/** An error a service raises on purpose: its status and message are safe to show. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Partial<ErrorBody> = {},
  ) {
    super(message);
  }
}

/**
 * A refused OAuth 2 token request (RFC 6749 §5.2): answered 400 with `error` and
 * `error_description` only, as OAuth clients expect from POST /token.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type',
    description: string,
  ) {
    super(description);
  }
}

/** 400 with field messages, the shape form errors take (SPEC §8 modelState). */
export function invalidFields(modelState: Record<string, string[]>): HttpError {
  return new HttpError(400, 'The request is invalid.', { modelState });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const modelState: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'request';
        (modelState[field] ??= []).push(issue.message ?? 'Invalid value.');
      }
      return reply.status(400).send({ message: 'The request is invalid.', modelState });
    }
    if (error instanceof OAuthError) {
      return reply.status(400).send({ error: error.error, error_description: error.message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: 'An error has occurred.' });
    }
    return reply.status(status).send({ message: error.message });
  });
}
