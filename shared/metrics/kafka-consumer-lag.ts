import type { Kafka } from 'kafkajs';
import type { Pool } from '../db/pool.ts';
import { queryWithTimeout } from '../db/query-with-timeout.ts';

export interface PartitionEnd {
  partition: number;
  /** The offset the next message will get. */
  high: string;
  /** The first offset still on the partition (retention removes older ones). */
  low: string;
}

export interface ConsumerGroupLag {
  /** The consumer's name (its group id without KAFKA_GROUP_PREFIX). */
  consumer: string;
  /** Messages on the topic after the consumer's recorded offsets, summed over partitions. */
  behindMessages: number;
}

/**
 * Pure: how far each consumer is behind the topic's end. An offset recorded per partition is
 * the next message the consumer handles; a partition it has never handled counts from its low
 * offset, where a new group starts.
 */
export function consumerGroupLags(
  consumers: readonly string[],
  ends: readonly PartitionEnd[],
  recorded: readonly { consumer: string; partition: number; next_offset: string }[],
): ConsumerGroupLag[] {
  return consumers.map((consumer) => {
    const offsets = new Map(
      recorded
        .filter((row) => row.consumer === consumer)
        .map((row) => [row.partition, BigInt(row.next_offset)]),
    );
    let behind = 0n;
    for (const end of ends) {
      const from = offsets.get(end.partition) ?? BigInt(end.low);
      if (BigInt(end.high) > from) behind += BigInt(end.high) - from;
    }
    return { consumer, behindMessages: Number(behind) };
  });
}

/**
 * Every Kafka consumer group's lag on `topic`: the topic's end offsets from the brokers
 * (admin fetchTopicOffsets) against the offsets the consumers record in
 * kafka_consumer_offsets when an event's effect is committed (shared/subscriptions/kafka-consumer.ts),
 * which cover every instance of a group. The consumers are `known` (this instance's) and
 * every one with recorded offsets. The whole read gives up after `timeoutMs`.
 */
export async function readKafkaConsumerLags(
  pool: Pool,
  kafka: Kafka,
  topic: string,
  known: readonly string[],
  timeoutMs: number,
): Promise<ConsumerGroupLag[]> {
  const admin = kafka.admin({ retry: { retries: 0 } });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka offsets not read within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const read = async () => {
      await admin.connect();
      const [ends, recorded] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        queryWithTimeout<{ consumer: string; partition: number; next_offset: string }>(
          pool,
          'select consumer, partition, next_offset from kafka_consumer_offsets where topic = $1',
          [topic],
          timeoutMs,
        ),
      ]);
      const consumers = [...new Set([...known, ...recorded.map((row) => row.consumer)])].sort();
      return consumerGroupLags(consumers, ends, recorded);
    };
    return await Promise.race([read(), timeout]);
  } finally {
    clearTimeout(timer);
    void admin.disconnect().catch(() => undefined);
  }
}
