import { describe, expect, it } from 'vitest';
import { kafkaStreamSettings } from './kafka.ts';

describe('Kafka stream settings', () => {
  it('defaults: the topic, six partitions, no group prefix, a 30 s session timeout', () => {
    expect(kafkaStreamSettings(['k:9092'], {})).toEqual({
      brokers: ['k:9092'],
      topic: 'onboarding.events',
      partitions: 6,
      source: '/client-onboarding',
      groupPrefix: '',
      sessionTimeoutMs: 30_000,
    });
  });

  it('takes a group prefix and a session timeout from 6 s to 5 min', () => {
    const settings = kafkaStreamSettings(['k:9092'], {
      KAFKA_GROUP_PREFIX: 'eu-1.',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    expect(settings).toMatchObject({ groupPrefix: 'eu-1.', sessionTimeoutMs: 6000 });
  });

  it.each([
    ['KAFKA_GROUP_PREFIX', 'with space'],
    ['KAFKA_SESSION_TIMEOUT_MS', '5999'],
    ['KAFKA_SESSION_TIMEOUT_MS', '300001'],
    ['KAFKA_SESSION_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => kafkaStreamSettings(['k:9092'], { [name]: value })).toThrow(name);
  });
});
