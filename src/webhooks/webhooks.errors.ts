import { DomainError } from '../common/errors/domain-error.js';

export enum WebhooksErrorCode {
  EndpointNotFound = 'webhook-not-found',
  DeliveryNotFound = 'delivery-not-found',
  UnsafeUrl = 'unsafe-webhook-url',
}

/** An error of the webhooks admin API. */
export class WebhooksError extends DomainError {
  private static readonly catalog: Record<WebhooksErrorCode, [number, string]> = {
    [WebhooksErrorCode.EndpointNotFound]: [404, 'Webhook endpoint not found'],
    [WebhooksErrorCode.DeliveryNotFound]: [404, 'Delivery not found'],
    [WebhooksErrorCode.UnsafeUrl]: [400, 'Webhook URL refused'],
  };

  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: WebhooksErrorCode,
    detail: string,
  ) {
    super(detail);
    [this.status, this.title] = WebhooksError.catalog[code];
  }
}
