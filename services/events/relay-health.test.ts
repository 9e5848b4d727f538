import { describe, expect, it } from 'vitest';
import { describeKafkaError, RelayHealth } from './relay-health.ts';

const refusal = Object.assign(new Error('The request included a message larger than the max message size'), {
  name: 'KafkaJSProtocolError',
  type: 'MESSAGE_TOO_LARGE',
});
const event = { id: '5b1c0e1e-8a4b-4a3c-9d7e-2f7a9c1b2d3e', position: 42n, type: 'client.created' };

describe('relay health', () => {
  it('is stalled after the set number of failures in a row, reported once, and clear after a success', () => {
    const health = new RelayHealth(3);
    const at = new Date('2026-01-01T00:00:00Z');
    expect([
      health.failed(refusal, event, at),
      health.failed(refusal, event),
      health.failed(refusal, event),
    ]).toEqual([false, false, true]);
    expect(health.failed(refusal, event)).toBe(false);
    expect(health.report()).toEqual({
      status: 'stalled',
      failing_since: '2026-01-01T00:00:00.000Z',
      retries: 4,
      last_error:
        'KafkaJSProtocolError MESSAGE_TOO_LARGE: The request included a message larger than the max message size',
      event_id: event.id,
      event_position: '42',
      event_type: 'client.created',
    });
    health.succeeded();
    expect(health.report()).toEqual({ status: 'ok' });
  });

  it('describes an error by name, type and message, cut at 300 characters', () => {
    expect(describeKafkaError(new Error('x'.repeat(400)))).toHaveLength(300);
    expect(describeKafkaError('plain')).toBe('Error: plain');
  });
});
