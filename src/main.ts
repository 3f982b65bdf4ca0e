import { ConfigError, loadConfig } from './config';
import { createLogger, flushLogger } from './logger';
import { startService } from './service';
import { KeyProviderStartError } from './chain/keys/startError';
import { MissingCapabilityError } from './store/mongo/capabilities';
import { EnvironmentMismatchError } from './store/mongo/mongoSignIn';

/** `npm start`: validate the environment, start everything, print one ready line, stop cleanly on signals. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  let service;
  try {
    service = await startService(config, logger);
  } catch (e) {
    // A database server without what the service needs, or a combination of variables refused at start: one line naming it, like a bad variable.
    if (e instanceof ConfigError || e instanceof KeyProviderStartError || e instanceof MissingCapabilityError || e instanceof EnvironmentMismatchError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const dashboard = service.dashboardUrl ? `  dashboard ${service.dashboardUrl}` : '';
  // Only a key generated for development is printed; DEV_API_KEY's is the operator's, and no account means nothing to show.
  const devKey = service.devApiKey ? `  dev API key ${service.devApiKey}` : service.devAccountId ? '  dev API key: DEV_API_KEY (not printed)' : '';
  const ready = `ready in ${Date.now() - started} ms (${service.environment}): REST ${service.url}/v1  GraphQL ${service.url}/graphql${dashboard}  health ${service.url}/healthz${devKey}`;
  // The ready line goes to stderr as plain text so a person sees it even when logs are piped as JSON.
  console.error(ready);
  logger.info({ url: service.url, devAccountId: service.devAccountId }, 'ready');

  // Logs are written asynchronously (createLogger): what is still buffered is written before the process exits.
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    service
      .stop()
      .then(async () => {
        logger.info({ signal }, 'stopped');
        await flushLogger(logger);
        process.exit(0);
      })
      .catch(async (err) => {
        logger.error({ err }, 'shutdown failed');
        await flushLogger(logger);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error('fatal:', err instanceof Error ? err.message : err);
  process.exit(1);
});
