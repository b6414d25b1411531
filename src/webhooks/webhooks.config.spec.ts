import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { webhooksConfig, webhooksConfigFrom, type WebhooksConfig } from './webhooks.config.js';

describe('webhooks config', () => {
  it('applies the documented defaults, durations in milliseconds', () => {
    expect(webhooksConfigFrom({})).toEqual({
      retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
      timeoutMs: 15_000,
      allowPrivateNetworks: false,
      secretGraceMs: 86_400_000,
      signingKeyRotationMs: 30 * 86_400_000,
      signingKeyPrepublishMs: 3_600_000,
      disableAfterMs: 5 * 86_400_000,
      warnAfterMs: 86_400_000,
      probeIntervalMs: 3_600_000,
      attemptRetentionMs: 30 * 86_400_000,
      deliveryRetentionMs: 30 * 86_400_000,
      pollIntervalMs: 1_000,
      leaseMs: 60_000,
      concurrency: 8,
      endpointConcurrency: 4,
      dispatcher: true,
    });
  });

  it('reads the variables, empty ones counting as unset', () => {
    const config = webhooksConfigFrom({
      WEBHOOK_RETRY_SCHEDULE: '100ms,2s',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_ENDPOINT_CONCURRENCY: '5',
      WEBHOOK_DISPATCHER: 'off',
      WEBHOOK_POLL_INTERVAL: '',
      WEBHOOK_SIGNING_KEY_ROTATION: 'off',
    });
    expect(config).toMatchObject({
      retrySchedule: [100, 2_000],
      allowPrivateNetworks: true,
      endpointConcurrency: 5,
      dispatcher: false,
      pollIntervalMs: 1_000,
      signingKeyRotationMs: undefined,
    });
  });

  it('names every invalid variable in one message', () => {
    expect(() =>
      webhooksConfigFrom({
        WEBHOOK_TIMEOUT: 'soon',
        WEBHOOK_RETRY_SCHEDULE: '5s,,5m',
        WEBHOOK_CONCURRENCY: '0',
        WEBHOOK_DISPATCHER: 'maybe',
      }),
    ).toThrow(/WEBHOOK_RETRY_SCHEDULE[\s\S]*WEBHOOK_TIMEOUT[\s\S]*WEBHOOK_CONCURRENCY[\s\S]*WEBHOOK_DISPATCHER/);
  });

  it('refuses to start when the lease could expire before an attempt ends', () => {
    expect(() => webhooksConfigFrom({ WEBHOOK_TIMEOUT: '10s', WEBHOOK_LEASE: '14s' })).toThrow(
      /WEBHOOK_LEASE: WEBHOOK_LEASE must be at least WEBHOOK_TIMEOUT \+ 5s \(WEBHOOK_TIMEOUT is 10s\)/,
    );
    expect(() => webhooksConfigFrom({ WEBHOOK_TIMEOUT: '60s' })).toThrow(/WEBHOOK_LEASE/);
  });

  it('accepts a lease of exactly the timeout plus 5 s', () => {
    expect(webhooksConfigFrom({ WEBHOOK_TIMEOUT: '10s', WEBHOOK_LEASE: '15s' }).leaseMs).toBe(15_000);
  });

  describe('as a Nest provider', () => {
    const saved = { ...process.env };
    afterEach(() => {
      process.env = { ...saved };
    });

    it('is provided by ConfigModule.forFeature alone (no ConfigModule.forRoot), read from process.env', async () => {
      process.env.WEBHOOK_CONCURRENCY = '3';
      const moduleRef = await Test.createTestingModule({
        imports: [ConfigModule.forFeature(webhooksConfig)],
      }).compile();
      expect(moduleRef.get<WebhooksConfig>(webhooksConfig.KEY).concurrency).toBe(3);
      await moduleRef.close();
    });

    it('fails the start with the bad variable named', async () => {
      process.env.WEBHOOK_TIMEOUT = 'forever';
      await expect(
        Test.createTestingModule({ imports: [ConfigModule.forFeature(webhooksConfig)] }).compile(),
      ).rejects.toThrow(/WEBHOOK_TIMEOUT/);
    });
  });
});
