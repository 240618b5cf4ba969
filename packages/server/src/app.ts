import Fastify, { LogController, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { BuildInfo } from './build-info.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { registerSystemRoutes } from './modules/system/system.routes.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  buildInfo: BuildInfo;
}

/** Wires plugins and modules into one Fastify instance; it does not listen (tests choose a port). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel },
    trustProxy: true,
    // One line per request is noise at info level; debug and trace keep it.
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
    }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        upgradeInsecureRequests: null,
      },
    },
  });

  registerSystemRoutes(app, { ...deps, startedAt: Date.now() });
  await registerWebApp(app, deps.config.webDistDir);
  return app;
}
