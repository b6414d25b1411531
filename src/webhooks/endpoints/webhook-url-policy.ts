import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import type { FieldViolation } from '@file-fields/nest';
import { isPublicAddress } from '../sending/ssrf-guard.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';
import { urlFormProblem } from './webhook-url-form.js';

const ALLOW_PRIVATE_HINT =
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true allows http and loopback or private addresses (for development and tests only).';

/**
 * Refuses endpoint URLs that are malformed, not https, carry credentials, or whose host resolves to a non-public
 * address (the last two lifted by WEBHOOK_ALLOW_PRIVATE_NETWORKS). The refusal names its cause, also as an error of
 * the `url` field (`errors`), so a form shows it where the URL is typed.
 */
@Injectable()
export class WebhookUrlPolicy {
  constructor(@Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig) {}

  async assertAllowed(raw: string): Promise<void> {
    const allowPrivate = this.config.allowPrivateNetworks;
    const problem = urlFormProblem(raw, allowPrivate);
    if (problem) {
      // A developer pointing at a local receiver gets here first: name the setting that would let it through.
      const plainHttp = !allowPrivate && URL.canParse(raw) && new URL(raw).protocol === 'http:';
      throw refusal(plainHttp ? `${problem} ${ALLOW_PRIVATE_HINT}` : problem);
    }
    if (allowPrivate) return;
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
    const addresses = await lookup(host, { all: true }).catch(() => []);
    if (addresses.length === 0) throw refusal(`The host ${host} does not resolve.`);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) {
      throw refusal(`The host ${host} resolves to the non-public address ${blocked.address}. ${ALLOW_PRIVATE_HINT}`);
    }
  }
}

function refusal(detail: string): WebhooksError {
  const error = new WebhooksError(WebhooksErrorCode.UnsafeUrl, detail);
  error.extensions.errors = [{ field: 'url', messages: [detail] }] satisfies FieldViolation[];
  return error;
}
