import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { LoadedSigningKey } from '../../token/index.js';

/** Where a published key is in its life, at the time of the answer. */
const SIGNING_KEY_STATES = ['upcoming', 'signing', 'retired'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];

/** One published Ed25519 key of `v1a` signatures, as the administration API shows it (never its private half). */
@ApiSchema({ name: 'WebhookSigningKey' })
export class WebhookSigningKeyDto {
  @ApiProperty({ description: 'Its `kid` in /.well-known/webhook-keys.json and in `webhook-key-id`' }) kid!: string;
  @ApiProperty({ example: 'EdDSA' }) algorithm!: string;
  @ApiProperty({
    enum: SIGNING_KEY_STATES,
    enumName: 'WebhookSigningKeyState',
    description: 'upcoming: published, signs from activates_at; signing: signs now; retired: published, signs no more',
  })
  state!: SigningKeyState;
  @ApiProperty({ format: 'date-time', description: 'When it starts (or started) signing' }) activates_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a newer key took over; null while it is the newest',
  })
  retired_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it leaves the key set (every attempt it signed has ended by then); null while not retired',
  })
  published_until!: string | null;

  static from(
    key: LoadedSigningKey & { publishedUntil: number | null },
    signing: LoadedSigningKey,
  ): WebhookSigningKeyDto {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    // By activation, not retirement: a key rotated in and then replaced before it started is retired at the start of
    // its successor, yet still signs from its own activation until then.
    const state: SigningKeyState =
      key.kid === signing.kid ? 'signing' : key.activatesAt > signing.activatesAt ? 'upcoming' : 'retired';
    return Object.assign(new WebhookSigningKeyDto(), {
      kid: key.kid,
      algorithm: key.algorithm,
      state,
      activates_at: new Date(key.activatesAt).toISOString(),
      retired_at: iso(key.retiredAt),
      published_until: iso(key.publishedUntil),
    });
  }
}
