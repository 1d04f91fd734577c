import { defineServerArea } from '../area.ts';
import { webhooksMigrations } from './webhooks.migrations.ts';
import { webhooksRouter } from './webhooks.router.ts';
import { startWebhooksWorker } from './webhooks.worker.ts';

/** Members' webhooks: the notification events, signed as Standard Webhooks, sent from an outbox with retries. */
export const webhooksArea = defineServerArea({ router: webhooksRouter, migrations: webhooksMigrations, worker: startWebhooksWorker });
