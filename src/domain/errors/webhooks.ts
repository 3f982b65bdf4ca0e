import { ServiceError } from './base';

export const webhookNotFound = (webhookId: string): ServiceError =>
  new ServiceError('WEBHOOK_NOT_FOUND', 'Webhook endpoint not found', { details: { webhookId } });
