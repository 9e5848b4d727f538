/**
 * A webhook delivery as the workspace API lists it (GET .../deliveries) and the workspace
 * app shows it: the service builds it, the browser reads it.
 */
export interface DeliveryAttempt {
  round: number;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_attempt_at: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  state: 'pending' | 'retrying' | 'delivered' | 'failed';
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  attempts: DeliveryAttempt[];
}
