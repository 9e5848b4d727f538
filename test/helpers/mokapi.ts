import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCUMENT_BROKER } from '../../infra/asyncapi/asyncapi-document.ts';
import { freePort } from '../../shared/net/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EVENTS_DOCUMENT = path.join(ROOT, 'infra/asyncapi/onboarding-events.yaml');

export interface MokapiOptions {
  /** The AsyncAPI document to serve; its broker host is replaced by a free local port. */
  document?: string;
  /** More files for the same folder (they may $ref the document by its file name). */
  files?: Record<string, string>;
}

export interface Mokapi {
  /** `127.0.0.1:<port>` of the document's broker. */
  brokers: string[];
  /** Base URL of mokapi's HTTP API. */
  apiUrl: string;
  /** Everything mokapi has logged so far (validation failures name the rule broken). */
  logs(): string;
  stop(): Promise<void>;
}

/** The native mokapi binary of the go-mokapi package (not its node wrapper, which would orphan it on kill). */
function mokapiBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const platform = process.platform === 'win32' ? 'win32' : process.platform;
  return require(`@go-mokapi/${platform}-${arch}`) as string;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts mokapi (a Kafka wire-protocol broker driven by an AsyncAPI document; it checks
 * every produced record against the channel's message and refuses a mismatch with
 * INVALID_RECORD) on free ports, from a temporary folder holding a copy of the document.
 * Its health and MCP endpoints (port 8080 by default) and search index (in /tmp) are off.
 */
export async function startMokapi(options: MokapiOptions = {}): Promise<Mokapi> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mokapi-'));
  const [kafkaPort, apiPort] = [await freePort(), await freePort()];
  const source = options.document ?? EVENTS_DOCUMENT;
  const document = await readFile(source, 'utf8');
  if (!document.includes(DOCUMENT_BROKER)) throw new Error(`${source} does not name ${DOCUMENT_BROKER}`);
  await writeFile(
    path.join(dir, path.basename(source)),
    document.replaceAll(DOCUMENT_BROKER, `127.0.0.1:${kafkaPort}`),
  );
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await writeFile(path.join(dir, name), content);
  }

  const output: string[] = [];
  const child: ChildProcess = spawn(
    mokapiBinary(),
    [
      '--api-port',
      String(apiPort),
      '--health-enabled=false',
      '--mcp-server-enabled=false',
      '--api-search-enabled=false',
      '--providers-file-directory',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`mokapi exited:\n${output.join('')}`);
    }
    const ready = await fetch(`${apiUrl}/api/services`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready && (await canConnect(kafkaPort))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`mokapi did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return { brokers: [`127.0.0.1:${kafkaPort}`], apiUrl, logs: () => output.join(''), stop };
}
