import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { z } from 'zod';
import type { Logger } from '../logging/logger.ts';
import { DEFAULT_CE_SOURCE } from './cloud-events.ts';

/** The relay's checkpoint in `checkpoints`: the last log position Kafka has acknowledged. */
export const RELAY_CHECKPOINT = 'relay:kafka';

export const DEFAULT_TOPIC = 'onboarding.events';

/**
 * Where the event stream goes on Kafka. Brokers come from KAFKA_BROKERS (settings); the
 * rest has defaults and optional variables (validated here, refused with the variable's
 * name): KAFKA_TOPIC, KAFKA_TOPIC_PARTITIONS (used only when the relay creates the
 * topic), CLOUDEVENTS_SOURCE (the ce_source attribute), KAFKA_GROUP_PREFIX (put before
 * each consumer's name to make its group id, for deployments that share a cluster),
 * KAFKA_SESSION_TIMEOUT_MS (how long a silent group member keeps its partitions: a killed
 * instance's share of the topic moves to the others after this; 6000 to 300000, default 30000).
 */
export interface KafkaStreamSettings {
  brokers: string[];
  topic: string;
  partitions: number;
  source: string;
  groupPrefix: string;
  sessionTimeoutMs: number;
}

const blank = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

const schema = z.object({
  KAFKA_TOPIC: z
    .string()
    .optional()
    .transform(blank)
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,249}$/, 'expected a Kafka topic name (letters, digits, . _ -)')
        .default(DEFAULT_TOPIC),
    ),
  KAFKA_TOPIC_PARTITIONS: z
    .string()
    .optional()
    .transform(blank)
    .pipe(z.coerce.number().int().min(1).max(10_000).default(6)),
  KAFKA_GROUP_PREFIX: z
    .string()
    .optional()
    .transform(blank)
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{0,100}$/, 'expected letters, digits, . _ -')
        .default(''),
    ),
  KAFKA_SESSION_TIMEOUT_MS: z
    .string()
    .optional()
    .transform(blank)
    .pipe(z.coerce.number().int().min(6000).max(300_000).default(30_000)),
  CLOUDEVENTS_SOURCE: z
    .string()
    .optional()
    .transform(blank)
    .pipe(z.string().min(1).default(DEFAULT_CE_SOURCE)),
});

export function kafkaStreamSettings(
  brokers: string[],
  env: NodeJS.ProcessEnv = process.env,
): KafkaStreamSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    throw new Error(`Invalid Kafka settings: ${issues.join('; ')}`);
  }
  return {
    brokers,
    topic: parsed.data.KAFKA_TOPIC,
    partitions: parsed.data.KAFKA_TOPIC_PARTITIONS,
    source: parsed.data.CLOUDEVENTS_SOURCE,
    groupPrefix: parsed.data.KAFKA_GROUP_PREFIX,
    sessionTimeoutMs: parsed.data.KAFKA_SESSION_TIMEOUT_MS,
  };
}

/** A kafkajs client whose own log lines go to the service logger. */
export function createKafka(brokers: string[], clientId: string, logger?: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logger ? logLevel.INFO : logLevel.NOTHING,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        if (!logger) return;
        const { message, timestamp: _timestamp, logger: _name, ...rest } = log;
        const fields = { kafkajs: namespace, ...rest };
        if (level === logLevel.ERROR) logger.error(fields, message);
        else if (level === logLevel.WARN) logger.warn(fields, message);
        else if (level === logLevel.INFO) logger.info(fields, message);
        else logger.debug(fields, message);
      },
  });
}
