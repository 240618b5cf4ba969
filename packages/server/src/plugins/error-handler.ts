import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  accountMessages,
  nulCharacterPath,
  requestMessages,
  wholeRequestField,
} from '@linkaudit/core';

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
    /** 429 for a sign-in that must wait (per-account backoff), with Retry-After in seconds. */
    readonly statusCode: 400 | 429 = 400,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

/** 400 with field messages, the shape form errors take (SPEC §8 modelState). */
export function invalidFields(modelState: Record<string, string[]>): HttpError {
  return new HttpError(400, requestMessages.invalidRequest, { modelState });
}

/** A field's name in modelState: its path in the body, query or params, dotted (`a.b.0.c`). */
function fieldName(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.') || wholeRequestField;
}

/** The modelState of zod issues: every field with each of its messages once. */
export function modelStateOf(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message?: string | undefined }>,
): Record<string, string[]> {
  const modelState: Record<string, string[]> = {};
  for (const issue of issues) {
    const messages = (modelState[fieldName(issue.path)] ??= []);
    const message = issue.message || requestMessages.invalidRequest;
    if (!messages.includes(message)) messages.push(message);
  }
  return modelState;
}

/**
 * Parses request input in a service: a mismatch is the client's (400 with modelState), unlike a
 * plain `schema.parse` of stored data, whose failure is ours (500).
 */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidFields(modelStateOf(parsed.error.issues));
  return parsed.data;
}

/** Fastify's body-parser refusals (broken or empty JSON) as SPEC's 400; others keep their status. */
function bodyParserMessage(error: FastifyError): string | undefined {
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return requestMessages.emptyBody;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return requestMessages.invalidJson;
  }
  return undefined;
}

/**
 * Refuses text with a NUL character anywhere in the params, query or body, before validation:
 * PostgreSQL cannot store it, so the same input must not fail there and pass on SQLite.
 */
function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = nulCharacterPath(part);
      if (!path) continue;
      if (request.routeOptions.url === '/token') {
        return done(new OAuthError('invalid_request', accountMessages.missingCredentials));
      }
      return done(invalidFields({ [fieldName(path)]: [requestMessages.nulCharacter] }));
    }
    done();
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  refuseNulCharacters(app);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.split('/').filter((segment) => segment !== ''),
        message: issue.message,
      }));
      return reply
        .status(400)
        .send({ message: requestMessages.invalidRequest, modelState: modelStateOf(issues) });
    }
    const parserMessage = error.statusCode === 400 ? bodyParserMessage(error) : undefined;
    if (parserMessage) {
      if (request.routeOptions.url === '/token') {
        return reply
          .status(400)
          .send({ error: 'invalid_request', error_description: parserMessage });
      }
      return reply.status(400).send({
        message: requestMessages.invalidRequest,
        modelState: { [wholeRequestField]: [parserMessage] },
      });
    }
    if (error instanceof OAuthError) {
      if (error.retryAfterSeconds !== undefined) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
      }
      return reply
        .status(error.statusCode)
        .send({ error: error.error, error_description: error.message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: requestMessages.serverError });
    }
    return reply.status(status).send({ message: error.message });
  });
}
