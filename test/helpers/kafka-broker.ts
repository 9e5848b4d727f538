import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { freePort } from '../../shared/net/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FETCH_SCRIPT = path.join(ROOT, 'infra/kafka/fetch.sh');
const LOG_CONFIG = path.join(ROOT, 'infra/kafka/log4j2.properties');
const run = promisify(execFile);

export interface KafkaBroker {
  /** `127.0.0.1:<port>` of the broker's listener. */
  brokers: string[];
  /** The broker's version, from its jar (`4.3.1`). */
  version: string;
  stop(): Promise<void>;
}

/** Fetches the broker's jars once (infra/kafka/fetch.sh); returns their folder. */
export async function fetchKafkaJars(): Promise<string> {
  const { stdout } = await run('bash', [FETCH_SCRIPT], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').pop()!.trim();
}

/**
 * A KRaft cluster id: 16 random bytes, base64url without padding, not starting with `-`
 * (which the command line would take for an option), as `kafka-storage random-uuid` makes.
 */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * One Kafka node, broker and controller (KRaft), on loopback ports, for tests: small heap,
 * replication factor 1 for the internal topics, no initial rebalance delay, topics created
 * on first use as a broker's default is. Its data and log live in a temporary folder that
 * `stop` removes; the JVM is killed when this process exits, however it exits.
 */
export async function startKafkaBroker(): Promise<KafkaBroker> {
  const lib = await fetchKafkaJars();
  const jar = (await run('bash', ['-c', 'ls kafka_2.13-*.jar'], { cwd: lib })).stdout.trim();
  const version = jar.replace(/^kafka_2\.13-(.*)\.jar$/, '$1');
  const dir = await mkdtemp(path.join(tmpdir(), 'kafka-test-'));
  const [port, controllerPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'server.properties');
  await writeFile(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${path.join(dir, 'data')}`,
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=4',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=2',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=true',
      'num.partitions=1',
      '',
    ].join('\n'),
  );
  const jvm = [
    '-Xmx384m',
    '-Xms64m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    `-Dkafka.logs.dir=${dir}`,
    `-Dlog4j2.configurationFile=${LOG_CONFIG}`,
    '-cp',
    path.join(lib, '*'),
  ];
  await run('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', config]);

  const child: ChildProcess = spawn('java', [...jvm, 'kafka.Kafka', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      // A single node has no one to hand its partitions to: SIGKILL is as good as a clean stop here.
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  const brokers = [`127.0.0.1:${port}`];
  try {
    await waitUntilAnswering(brokers, child, 60_000);
  } catch (error) {
    const log = await readFile(path.join(dir, 'server.log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(
      `${(error as Error).message}\n${stderr.join('').slice(-4000)}\n${log.slice(-4000)}`.trim(),
      { cause: error },
    );
  }
  return { brokers, version, stop };
}

/** Until the broker's admin API lists topics and its group coordinator is up. */
async function waitUntilAnswering(brokers: string[], child: ChildProcess, timeoutMs: number) {
  const kafka = new Kafka({
    brokers,
    clientId: 'test-broker-probe',
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 500,
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the Kafka broker exited (${child.exitCode ?? child.signalCode})`);
    }
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.listTopics();
      // The consumer offsets topic exists once a group has asked for its coordinator.
      await admin.describeGroups(['test-broker-probe']);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the Kafka broker did not answer within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
