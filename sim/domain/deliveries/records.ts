/** Records of destinations, subscriptions and webhook deliveries. Stored, one interface per collection. */

export type DestinationState = 'needs_verification' | 'verified' | 'failing' | 'revoked';

export interface DestinationRecord {
  id: string;
  accountId: string;
  url: string;
  kind: 'https' | 'chat';
  state: DestinationState;
  verificationAttempts: number;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: string;
  verifiedAt: string | null;
  revokedAt: string | null;
  /** Chat destinations: the pending 8-digit code and when it stops being valid. */
  chatCode: { code: string; expiresAt: string } | null;
}

export interface SubscriptionRecord {
  id: string;
  monitorId: string;
  destinationId: string;
  createdAt: string;
}

export interface DeliveryAttempt {
  at: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'refused';
  httpStatus: number | null;
  error: string | null;
}

export interface DeliveryRecord {
  id: string;
  accountId: string;
  purpose: 'verification' | 'delivery';
  monitorId: string | null;
  destinationId: string | null;
  /** Set for a monitor's own webhookUrl (test environment). */
  webhookUrl: string | null;
  monitorEventId: string | null;
  type: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: DeliveryAttempt[];
  createdAt: string;
  nextAttemptAt: string | null;
}
