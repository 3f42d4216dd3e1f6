// The work a process does besides answering requests, by ROLE: projections (projector), the
// webhook catalog projector and dispatcher (webhooks), the payout resumer (api), and the daily jobs.
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { DatabaseHandle } from '../infra/database.js';
import type { Metrics } from '../infra/metrics.js';
import type { SecretBox } from '../infra/secrets.js';
import type { EventStore } from '../eventstore/port.js';
import type { ProjectionRunner } from '../../projections/runner.js';
import { startWebhookWork, type WebhookWork, type WebhookWorkDeps } from '../webhooks/worker.js';
import { startDailyRatesFetch } from '../rates/daily-fetch.js';
import { sweepOrphanBlobs } from '../attachments/blob-store.js';
import { startDailyJob } from './daily-job.js';
import { startPayoutResumer } from '../application/payouts/resumer.js';

export interface BackgroundDeps {
  config: Config;
  logger: Logger;
  handle: DatabaseHandle;
  store: EventStore;
  runner: ProjectionRunner;
  secrets: SecretBox;
  metrics: Metrics;
  delivery: WebhookWorkDeps['delivery'];
}

export interface BackgroundWork {
  /** Present with ROLE all or webhooks. */
  webhooks?: WebhookWork | undefined;
  stop(): Promise<void>;
}

export async function startBackgroundWork(deps: BackgroundDeps): Promise<BackgroundWork> {
  const { config } = deps;
  const stops: (() => Promise<void>)[] = [];
  if (config.role === 'all' || config.role === 'projector') {
    await deps.runner.start();
    if (config.ratesFetch) {
      // Daily provider rates when the network allows; failures are logged and retried, never fatal.
      const fetcher = startDailyRatesFetch({ db: deps.handle.db, logger: deps.logger.child({ component: 'rates-fetch' }) });
      stops.push(() => fetcher.stop());
    }
  }
  if (config.role === 'all' || config.role === 'api') {
    // Attachment bytes whose upload or removal ended without a recorded outcome.
    const sweep = startDailyJob('attachment-orphan-sweep', deps.logger, () => sweepOrphanBlobs(deps.handle.db, deps.store));
    stops.push(() => sweep.stop());
    // Payout processes a killed API process left unfinished (docs/payouts.md): the role that
    // runs the processes finishes them; several API replicas resuming at once is harmless.
    const resumer = startPayoutResumer(deps.handle.db, deps.store, deps.logger.child({ component: 'payout-resumer' }));
    stops.push(() => resumer.stop());
  }
  let webhooks: WebhookWork | undefined;
  if (config.role === 'all' || config.role === 'webhooks') {
    const work = await startWebhookWork({ ...deps, db: deps.handle.db });
    webhooks = work;
    stops.push(() => work.stop());
  }
  return {
    webhooks,
    async stop() {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
