import { AuditRetention } from '../audit/index.js';
import { OrphanSweepSchedule } from '@file-fields/nest';
import { SigningKeysService, tokenConfig } from '../token/index.js';
import {
  WebhookDispatcher,
  WebhookEndpointProbe,
  WebhookRetention,
  WebhookSigningKeys,
  webhooksConfig,
} from '../webhooks/index.js';
import { periodicJobs, type ProviderLookup } from './periodic-jobs.js';

function lookups(settings: { dispatcher: boolean; inBackground: boolean }) {
  const calls: string[] = [];
  const fakes = new Map<unknown, object>([
    [AuditRetention, { sweep: () => calls.push('audit') }],
    [SigningKeysService, { reload: () => calls.push('keys') }],
    [WebhookSigningKeys, { reload: () => calls.push('webhook keys') }],
    [WebhookDispatcher, { wake: () => calls.push('poll') }],
    [WebhookRetention, { removeExpired: () => calls.push('webhook retention') }],
    [WebhookEndpointProbe, { probeDue: () => calls.push('probe') }],
    [OrphanSweepSchedule, { inBackground: settings.inBackground, everyMs: 0, run: () => calls.push('orphans') }],
  ]);
  const configs = new Map<unknown, object>([
    [webhooksConfig.KEY, { dispatcher: settings.dispatcher, pollIntervalMs: 1000 }],
    [tokenConfig.KEY, { signingKeysReloadMs: 60_000 }],
  ]);
  const provider = ((token: unknown) => fakes.get(token)) as ProviderLookup;
  const config = <T>(key: string | symbol) => configs.get(key) as T;
  return { provider, config, calls };
}

describe('periodicJobs', () => {
  it('lists every periodic task with its owner and interval, each running its feature method', async () => {
    const { provider, config, calls } = lookups({ dispatcher: true, inBackground: true });
    const jobs = periodicJobs(provider, config);
    expect(jobs.map(({ name, owner, everyMs, atStart }) => ({ name, owner, everyMs, atStart }))).toEqual([
      { name: 'audit-retention', owner: 'audit', everyMs: 3_600_000, atStart: true },
      { name: 'signing-keys-reload', owner: 'token', everyMs: 60_000, atStart: false },
      { name: 'webhook-signing-keys-reload', owner: 'webhooks', everyMs: 60_000, atStart: false },
      { name: 'webhook-delivery-poll', owner: 'webhooks', everyMs: 1000, atStart: true },
      { name: 'webhook-retention', owner: 'webhooks', everyMs: 1000, atStart: true },
      { name: 'webhook-endpoint-probe', owner: 'webhooks', everyMs: 1000, atStart: false },
      { name: 'orphan-sweep', owner: 'files', everyMs: 0, atStart: true },
    ]);
    for (const job of jobs) await job.run();
    expect(calls).toEqual(['audit', 'keys', 'webhook keys', 'poll', 'webhook retention', 'probe', 'orphans']);
  });

  it('leaves out what the settings turn off: WEBHOOK_DISPATCHER=off, sweepOrphansInBackground: false', () => {
    const { provider, config } = lookups({ dispatcher: false, inBackground: false });
    expect(periodicJobs(provider, config).map((job) => job.name)).toEqual([
      'audit-retention',
      'signing-keys-reload',
      'webhook-signing-keys-reload',
    ]);
  });
});
