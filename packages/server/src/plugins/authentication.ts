import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountMessages,
  type AccountLanguage,
  type AccountRole,
  type PlanId,
} from '@linkaudit/core';
import { HttpError } from './error-handler.js';

/** Who a valid access token belongs to, loaded fresh for each request. */
export interface SignedInUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: AccountLanguage;
  roles: AccountRole[];
  emailConfirmed: boolean;
  /** The plan on the account (Free until billing or an operator says otherwise). */
  planId: PlanId;
  /** `Local` or the external provider the token came from. */
  loginProvider: string;
  tokenId: string;
  tokenExpiresAt: Date;
}

/** Someone who signed in at an external provider but has no account yet (registerExternal). */
export interface ExternalSignIn {
  pendingLoginId: string;
  provider: string;
  providerKey: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

export type Credential =
  { kind: 'user'; user: SignedInUser } | { kind: 'external'; signIn: ExternalSignIn };

/** Turns a bearer token into a credential, or null when it is not (or no longer) valid. */
export type Authenticate = (bearerToken: string) => Promise<Credential | null>;

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireUser` (and `requireUserOrExternalSignIn`) for a valid access token. */
    user: SignedInUser | null;
    /** Set by `app.requireUserOrExternalSignIn` for the token of an unfinished external sign-in. */
    externalSignIn: ExternalSignIn | null;
  }
  interface FastifyInstance {
    /** onRequest guard: a valid access token, else 401. */
    requireUser: Guard;
    /** onRequest guard: an admin's access token, else 401 / 403. */
    requireAdmin: Guard;
    /** onRequest guard: an access token or an external sign-in token, else 401. */
    requireUserOrExternalSignIn: Guard;
  }
}

/**
 * Bearer authentication for the routes that ask for it (SPEC §4 Session: the access token is
 * sent as a Bearer credential). Anything else answers 401 with SPEC's message.
 */
export function registerAuthentication(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('user', null);
  app.decorateRequest('externalSignIn', null);

  const credentialOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const credential = token ? await authenticate(token) : null;
    if (!credential) {
      void reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, accountMessages.unauthorized);
    }
    return credential;
  };

  app.decorate(
    'requireUserOrExternalSignIn',
    async (request: FastifyRequest, reply: FastifyReply) => {
      const credential = await credentialOf(request, reply);
      if (credential.kind === 'user') request.user = credential.user;
      else request.externalSignIn = credential.signIn;
    },
  );
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const credential = await credentialOf(request, reply);
    if (credential.kind !== 'user') {
      void reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, accountMessages.unauthorized);
    }
    request.user = credential.user;
  });
  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireUser(request, reply);
    if (!request.user?.roles.includes('admin')) {
      throw new HttpError(403, 'This requires an administrator.');
    }
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** The signed-in user of a route guarded by `requireUser`. */
export function signedInUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw new HttpError(401, accountMessages.unauthorized);
  return request.user;
}

/** The credential of a route guarded by `requireUserOrExternalSignIn`. */
export function requestCredential(request: FastifyRequest): Credential {
  if (request.user) return { kind: 'user', user: request.user };
  if (request.externalSignIn) return { kind: 'external', signIn: request.externalSignIn };
  throw new HttpError(401, accountMessages.unauthorized);
}
