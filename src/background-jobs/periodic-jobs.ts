import { AuditRetention } from '../audit/index.js';
import { OrphanSweepSchedule } from '@file-fields/nest';
import { SigningKeysService, tokenConfig, type TokenConfig } from '../token/index.js';
import {
  WebhookDispatcher,
  WebhookEndpointProbe,
  WebhookRetention,
  WebhookSigningKeys,
  webhooksConfig,
  type WebhooksConfig,
} from '../webhooks/index.js';
import type { PeriodicJob } from './periodic-job.js';

/** Removing old audit events is cheap to postpone: once an hour is plenty for a retention counted in days. */
const AUDIT_RETENTION_EVERY_MS = 3_600_000;

/** Finds a provider of the application by its class or token, wherever its feature declares it. */
export type ProviderLookup = <T>(token: abstract new (...args: never[]) => T) => T;
type ConfigLookup = <T>(key: string | symbol) => T;

/**
 * Every task the service runs by itself: its name, owner, interval, and the feature method that does one run. Jobs
 * a setting turns off (WEBHOOK_DISPATCHER=off, sweepOrphansInBackground: false) are left out.
 */
export function periodicJobs(provider: ProviderLookup, config: ConfigLookup): PeriodicJob[] {
  const webhooks = config<WebhooksConfig>(webhooksConfig.KEY);
  const token = config<TokenConfig>(tokenConfig.KEY);
  const orphanSweep = provider(OrphanSweepSchedule);
  const dispatcher = provider(WebhookDispatcher);
  const webhookRetention = provider(WebhookRetention);
  const probe = provider(WebhookEndpointProbe);
  const auditRetention = provider(AuditRetention);
  const signingKeys = provider(SigningKeysService);
  const webhookSigningKeys = provider(WebhookSigningKeys);
  const jobs: PeriodicJob[] = [
    {
      name: 'audit-retention',
      owner: 'audit',
      everyMs: AUDIT_RETENTION_EVERY_MS,
      atStart: true,
      run: () => auditRetention.sweep(),
    },
    {
      // Every instance: a rotation another instance made is seen within this time (see SIGNING_KEY_PREPUBLISH).
      name: 'signing-keys-reload',
      owner: 'token',
      everyMs: token.signingKeysReloadMs,
      atStart: false,
      run: () => signingKeys.reload(),
    },
    {
      // Every instance, dispatcher or not: each signs with the key the schedule made current, and serves the key set.
      name: 'webhook-signing-keys-reload',
      owner: 'webhooks',
      everyMs: token.signingKeysReloadMs,
      atStart: false,
      run: () => webhookSigningKeys.reload(),
    },
  ];
  if (webhooks.dispatcher) {
    jobs.push(
      // New events are sent right after their commit; the poll finds retries come due and deliveries left behind.
      {
        name: 'webhook-delivery-poll',
        owner: 'webhooks',
        everyMs: webhooks.pollIntervalMs,
        atStart: true,
        run: () => dispatcher.wake(),
      },
      {
        // Looks on every poll; WebhookRetention removes at most once an hour by the service's clock.
        name: 'webhook-retention',
        owner: 'webhooks',
        everyMs: webhooks.pollIntervalMs,
        atStart: true,
        run: () => webhookRetention.removeExpired(),
      },
      {
        // Looks on every poll for disabled endpoints due for a probe (one query on the endpoints).
        name: 'webhook-endpoint-probe',
        owner: 'webhooks',
        everyMs: webhooks.pollIntervalMs,
        atStart: false,
        run: () => probe.probeDue(),
      },
    );
  }
  if (orphanSweep.inBackground) {
    jobs.push({
      name: 'orphan-sweep',
      owner: 'files',
      everyMs: orphanSweep.everyMs,
      atStart: true,
      run: () => orphanSweep.run(),
    });
  }
  return jobs;
}
