import type { ConfigType } from '@nestjs/config';
import { IsIn, ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';
import { parseDuration } from '../common/duration.js';
import { featureConfig } from '../config/feature-config.js';
import { Setting } from '../config/setting.js';
import { IsPrepublish } from '../token/index.js';
import { durationListMs, durationMs, IsDuration, IsDurationList, IsIntVariable } from '../config/validate-config.js';

/** Between an attempt's deadline and its lease's end: time to record the result before another instance may claim. */
export const LEASE_MARGIN_MS = 5_000;

/** Refuses a WEBHOOK_LEASE that could expire while an attempt is still within WEBHOOK_TIMEOUT (a second send). */
function OutlastsWebhookTimeout(): PropertyDecorator {
  const timeoutOf = (args?: ValidationArguments) =>
    String((args?.object as Partial<WebhooksEnvironment>).WEBHOOK_TIMEOUT);
  return ValidateBy({
    name: 'outlastsWebhookTimeout',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const lease = typeof value === 'string' ? parseDuration(value) : undefined;
        const timeout = parseDuration(timeoutOf(args));
        return lease === undefined || timeout === undefined || lease >= timeout + LEASE_MARGIN_MS;
      },
      defaultMessage: (args?: ValidationArguments) =>
        `WEBHOOK_LEASE must be at least WEBHOOK_TIMEOUT + 5s (WEBHOOK_TIMEOUT is ${timeoutOf(args)})`,
    },
  });
}

/** The WEBHOOK_* environment variables, with their defaults. */
class WebhooksEnvironment {
  @Setting({ doc: 'Delays between attempts (units `ms`, `s`, `m`, `h`, `d`); the first attempt is immediate' })
  @IsDurationList({ message: 'WEBHOOK_RETRY_SCHEDULE must be durations like 5s,5m,2h (units ms, s, m, h, d)' })
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

  @Setting({ doc: "Hard deadline of one attempt: connecting, sending and reading the answer's first 2 KiB" })
  @IsDuration({ message: 'WEBHOOK_TIMEOUT must be a duration like 15s' })
  WEBHOOK_TIMEOUT = '15s';

  @Setting({ doc: '`true` allows `http` and loopback/private destinations: for development and tests only' })
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'false';

  @Setting({ doc: 'How long a rotated signing secret still signs' })
  @IsDuration({ message: 'WEBHOOK_SECRET_GRACE must be a duration like 24h' })
  WEBHOOK_SECRET_GRACE = '24h';

  @Setting({
    doc: 'How long an Ed25519 key signs `v1a` signatures before the next one takes over; `off`: only on demand',
  })
  @ValidateIf((env: WebhooksEnvironment) => env.WEBHOOK_SIGNING_KEY_ROTATION !== 'off')
  @IsDuration({ message: 'WEBHOOK_SIGNING_KEY_ROTATION must be a duration like 30d, or off' })
  WEBHOOK_SIGNING_KEY_ROTATION = '30d';

  /** Receivers that cache the key set (jose refetches it on an unknown `kid` anyway) hold a new key before it signs. */
  @Setting({
    doc: 'How long a new `v1a` key is in `/.well-known/webhook-keys.json` before it signs; at least `2m`',
    rarelyNeeded: true,
  })
  @IsPrepublish('WEBHOOK_SIGNING_KEY_PREPUBLISH')
  WEBHOOK_SIGNING_KEY_PREPUBLISH = '1h';

  @Setting({ doc: 'An endpoint whose deliveries all failed this long is disabled' })
  @IsDuration({ message: 'WEBHOOK_DISABLE_AFTER must be a duration like 5d' })
  WEBHOOK_DISABLE_AFTER = '5d';

  @Setting({
    doc: "An endpoint whose deliveries all failed this long is reported failing (its owner warned); before it's disabled",
  })
  @IsDuration({ message: 'WEBHOOK_WARN_AFTER must be a duration like 1d' })
  WEBHOOK_WARN_AFTER = '1d';

  @Setting({ doc: 'How often a disabled endpoint that recovers by itself (`auto_recover`) is probed' })
  @IsDuration({ message: 'WEBHOOK_PROBE_INTERVAL must be a duration like 1h' })
  WEBHOOK_PROBE_INTERVAL = '1h';

  @Setting({ doc: 'How long the attempt log is kept' })
  @IsDuration({ message: 'WEBHOOK_ATTEMPT_RETENTION must be a duration like 30d' })
  WEBHOOK_ATTEMPT_RETENTION = '30d';

  /**
   * Finished deliveries (succeeded, failed, skipped) are removed this long after they finished, with their attempts,
   * and events once no delivery refers to them: events carry file records. Pending deliveries are kept.
   */
  @Setting({
    doc: 'Finished deliveries are removed this long after they finished, then events no delivery refers to any more',
  })
  @IsDuration({ message: 'WEBHOOK_DELIVERY_RETENTION must be a duration like 30d' })
  WEBHOOK_DELIVERY_RETENTION = '30d';

  @Setting({
    doc: 'How often due retries are looked for (new events go out right after their commit)',
    rarelyNeeded: true,
  })
  @IsDuration({ message: 'WEBHOOK_POLL_INTERVAL must be a duration like 1s' })
  WEBHOOK_POLL_INTERVAL = '1s';

  /**
   * How long an instance holds a delivery it is sending. At least WEBHOOK_TIMEOUT + 5s (checked at start): an attempt
   * ends at its deadline, and the lease must outlive it by the time recording the result takes.
   */
  @Setting({
    doc: 'How long an instance holds a delivery it is sending; at least `WEBHOOK_TIMEOUT` + 5s (checked at start)',
    rarelyNeeded: true,
  })
  @IsDuration({ message: 'WEBHOOK_LEASE must be a duration like 60s' })
  @OutlastsWebhookTimeout()
  WEBHOOK_LEASE = '60s';

  /** Requests open at a time from one instance (deliveries claimed ahead wait for one of these slots). */
  @Setting({ doc: 'Requests open at a time per instance', rarelyNeeded: true })
  @IsIntVariable(1, 100)
  WEBHOOK_CONCURRENCY = 8;

  /**
   * Requests open at a time to one endpoint from one instance. With 4, a backlog drains to a fast receiver at over
   * 1,000/s on a 2-core machine; lower it for receivers that cannot take that many.
   */
  @Setting({
    doc: 'Requests open at a time to one endpoint from one instance (lower it for receivers that cannot take 4)',
    rarelyNeeded: true,
  })
  @IsIntVariable(1, 100)
  WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  @Setting({ doc: '`off`: this instance records events but does not send them (maintenance, tests)' })
  @IsIn(['on', 'off'])
  WEBHOOK_DISPATCHER = 'on';
}

/** Webhook delivery settings, durations in milliseconds; validated from `process.env` when the module loads. */
export const webhooksConfig = featureConfig('webhooks', WebhooksEnvironment, (env) => ({
  retrySchedule: durationListMs(env.WEBHOOK_RETRY_SCHEDULE),
  timeoutMs: durationMs(env.WEBHOOK_TIMEOUT),
  allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
  secretGraceMs: durationMs(env.WEBHOOK_SECRET_GRACE),
  signingKeyRotationMs:
    env.WEBHOOK_SIGNING_KEY_ROTATION === 'off' ? undefined : durationMs(env.WEBHOOK_SIGNING_KEY_ROTATION),
  signingKeyPrepublishMs: durationMs(env.WEBHOOK_SIGNING_KEY_PREPUBLISH),
  disableAfterMs: durationMs(env.WEBHOOK_DISABLE_AFTER),
  warnAfterMs: durationMs(env.WEBHOOK_WARN_AFTER),
  probeIntervalMs: durationMs(env.WEBHOOK_PROBE_INTERVAL),
  attemptRetentionMs: durationMs(env.WEBHOOK_ATTEMPT_RETENTION),
  deliveryRetentionMs: durationMs(env.WEBHOOK_DELIVERY_RETENTION),
  pollIntervalMs: durationMs(env.WEBHOOK_POLL_INTERVAL),
  leaseMs: durationMs(env.WEBHOOK_LEASE),
  concurrency: env.WEBHOOK_CONCURRENCY,
  endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
  dispatcher: env.WEBHOOK_DISPATCHER === 'on',
}));

export type WebhooksConfig = ConfigType<typeof webhooksConfig>;

/** The settings from the given variables (a bad value throws a message naming each bad variable). */
export function webhooksConfigFrom(raw: Record<string, unknown>): WebhooksConfig {
  return webhooksConfig.from(raw);
}
