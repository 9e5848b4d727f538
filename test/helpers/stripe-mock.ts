import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { homedir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

/**
 * stripe-mock, Stripe's official API mock (a Go module; .ci/run installs the pinned version
 * with `go install`), on free loopback ports with both its HTTP and HTTPS listeners set.
 * Every Stripe API call of the service goes to it through STRIPE_API_URL (its HTTP address).
 */
export interface TestStripeMock {
  /** `http://127.0.0.1:<port>`: STRIPE_API_URL of the service under test. */
  url: string;
  stop(): Promise<void>;
}

/** The version .ci/run installs (`go install github.com/stripe/stripe-mock@<version>`). */
export const STRIPE_MOCK_VERSION = 'v0.203.0';

const GOBIN = process.env.GOBIN ?? path.join(process.env.GOPATH ?? path.join(homedir(), 'go'), 'bin');
const STRIPE_MOCK = process.env.STRIPE_MOCK_BIN ?? path.join(GOBIN, 'stripe-mock');

export async function startStripeMock(): Promise<TestStripeMock> {
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    STRIPE_MOCK,
    ['-http-addr', `127.0.0.1:${httpPort}`, '-https-addr', `127.0.0.1:${httpsPort}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = `http://127.0.0.1:${httpPort}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start:\n${output}`)), 20_000);
    const done = (error?: Error) => {
      clearTimeout(timer);
      clearInterval(poll);
      if (error) reject(error);
      else resolve();
    };
    child.once('error', (error) =>
      done(
        new Error(
          `cannot run ${STRIPE_MOCK} (go install github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}): ${error.message}`,
        ),
      ),
    );
    child.once('exit', (code) => done(new Error(`stripe-mock exited with ${code}:\n${output}`)));
    const collect = (chunk: Buffer) => (output += chunk.toString());
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    // Ready once it answers an API call.
    const poll = setInterval(() => {
      fetch(`${url}/v1/balance`, { headers: { authorization: 'Bearer sk_test_ready' } })
        .then((response) => {
          if (response.ok) done();
        })
        .catch(() => undefined);
    }, 100);
  });
  child.removeAllListeners('exit');
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
