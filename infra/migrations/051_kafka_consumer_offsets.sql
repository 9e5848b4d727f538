-- The Kafka adapter of the subscription port (shared/subscriptions/kafka-consumer.ts)
-- records, per consumer and partition, the offset after the last message it has handled,
-- in the same transaction as the handling. `caughtUp`/drain compares these with the
-- topic's end offsets: it works for every instance of a group and across restarts, and
-- needs no group-offset API of the broker.
create table kafka_consumer_offsets (
  consumer text not null,
  topic text not null,
  partition integer not null,
  next_offset bigint not null,
  updated_at timestamptz not null default now(),
  primary key (consumer, topic, partition)
);
