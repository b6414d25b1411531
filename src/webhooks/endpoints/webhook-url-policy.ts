import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isPublicAddress } from '../sending/ssrf-guard.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

const ALLOW_PRIVATE_HINT =
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true allows http and loopback or private addresses (for development and tests only).';

/** Refuses endpoint URLs that are not https, or whose host resolves to a non-public address (unless allowed). */
@Injectable()
export class WebhookUrlPolicy {
  constructor(@Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig) {}

  async assertAllowed(raw: string): Promise<void> {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    const allowPrivate = this.config.allowPrivateNetworks;
    const protocols = allowPrivate ? ['https:', 'http:'] : ['https:'];
    if (!url || !protocols.includes(url.protocol) || url.username || url.password) {
      // A developer pointing at a local receiver gets here first: name the setting that would let it through.
      const hint = !allowPrivate && url?.protocol === 'http:' ? ` ${ALLOW_PRIVATE_HINT}` : '';
      throw this.refuse(`The URL must be ${allowPrivate ? 'http(s)' : 'https'}, without credentials.${hint}`);
    }
    if (allowPrivate) return;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = await lookup(host, { all: true }).catch(() => []);
    if (addresses.length === 0) throw this.refuse(`The host ${host} does not resolve.`);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) {
      throw this.refuse(
        `The host ${host} resolves to the non-public address ${blocked.address}. ${ALLOW_PRIVATE_HINT}`,
      );
    }
  }

  private refuse(detail: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.UnsafeUrl, detail);
  }
}
