import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../shared/config/settings.ts';

/** The message of the SettingsError that `env` causes (fails the test when there is none). */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).message;
  }
  throw new Error(`settings ${JSON.stringify(env)} were accepted`);
}

describe('defaults (nothing set)', () => {
  const settings = loadSettings({});

  it('gives every variable of the settings table its documented default', () => {
    expect(settings).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATABASE_URL: undefined,
      EVENTSTORE_URL: undefined,
      KAFKA_BROKERS: [],
      REDIS_URL: undefined,
      METRICS_TOKEN: undefined,
      READY_MAX_LAG_SECONDS: 120,
      DATABASE_LOST_UNHEALTHY_SECONDS: 20,
      SERVICE_ROLE: 'all',
      SMTP_URL: undefined,
      ADMIN_TOKEN: undefined,
      TRUST_PROXY: false,
      RATE_LIMITS: true,
      HOOK_TARGET_ALLOWLIST: [],
      TEST_CLOCK: false,
      PUBLIC_URL: 'http://127.0.0.1:3000',
      DATA_DIR: './.data',
      DELIVERY_LOG_RETENTION_DAYS: 30,
      PROCESSED_EVENTS_RETENTION_DAYS: 30,
      AUTOMATION_RUN_RETENTION_DAYS: 30,
      TIMER_RETENTION_DAYS: 30,
      MAIL_RETENTION_DAYS: 30,
      LOG_LEVEL: 'info',
    });
  });

  it('treats a blank variable as unset', () => {
    const blank = loadSettings({
      PORT: '',
      HOST: ' ',
      DATABASE_URL: '',
      EVENTSTORE_URL: '',
      KAFKA_BROKERS: '',
      REDIS_URL: '',
      METRICS_TOKEN: '',
      READY_MAX_LAG_SECONDS: '',
      SERVICE_ROLE: '',
      SMTP_URL: '',
      ADMIN_TOKEN: '',
      TRUST_PROXY: '',
      RATE_LIMITS: '',
      HOOK_TARGET_ALLOWLIST: '',
      TEST_CLOCK: '',
      PUBLIC_URL: '',
      DATA_DIR: '',
      DELIVERY_LOG_RETENTION_DAYS: '',
      PROCESSED_EVENTS_RETENTION_DAYS: '',
      AUTOMATION_RUN_RETENTION_DAYS: '',
      TIMER_RETENTION_DAYS: '',
      MAIL_RETENTION_DAYS: '',
      LOG_LEVEL: '',
    });
    expect(blank).toEqual(settings);
  });

  it('ignores variables that are not settings', () => {
    expect(loadSettings({ PATH: '/usr/bin', HOME: '/root' })).toEqual(settings);
  });
});

describe('each setting', () => {
  it('PORT: a port number', () => {
    expect(loadSettings({ PORT: '8080' }).PORT).toBe(8080);
    expect(loadSettings({ PORT: '0' }).PORT).toBe(0);
    expect(loadSettings({ PORT: '65535' }).PORT).toBe(65535);
  });

  it('HOST: the bind address', () => {
    expect(loadSettings({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadSettings({ HOST: '::' }).HOST).toBe('::');
  });

  it('DATABASE_URL: a postgres:// or postgresql:// URL', () => {
    expect(loadSettings({ DATABASE_URL: 'postgres://u:p@db:5432/app' }).DATABASE_URL).toBe(
      'postgres://u:p@db:5432/app',
    );
    expect(loadSettings({ DATABASE_URL: 'postgresql://db/app?sslmode=require' }).DATABASE_URL).toBe(
      'postgresql://db/app?sslmode=require',
    );
    expect(loadSettings({ DATABASE_URL: 'postgres:///app?host=/var/run/postgresql' }).DATABASE_URL).toBe(
      'postgres:///app?host=/var/run/postgresql',
    );
  });

  it('EVENTSTORE_URL: an esdb:// connection string, also for a cluster', () => {
    expect(loadSettings({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }).EVENTSTORE_URL).toBe(
      'esdb://localhost:2113?tls=false',
    );
    expect(
      loadSettings({ EVENTSTORE_URL: 'esdb+discover://a:2113,b:2113,c:2113?tls=false' }).EVENTSTORE_URL,
    ).toBe('esdb+discover://a:2113,b:2113,c:2113?tls=false');
    expect(loadSettings({ EVENTSTORE_URL: 'kurrentdb://admin:changeit@kdb:2113' }).EVENTSTORE_URL).toBe(
      'kurrentdb://admin:changeit@kdb:2113',
    );
  });

  it('KAFKA_BROKERS: a comma-separated list of host:port', () => {
    expect(loadSettings({ KAFKA_BROKERS: 'kafka:9092' }).KAFKA_BROKERS).toEqual(['kafka:9092']);
    expect(
      loadSettings({ KAFKA_BROKERS: ' a:9092, b.example.com:19092 ,,[::1]:9092 ' }).KAFKA_BROKERS,
    ).toEqual(['a:9092', 'b.example.com:19092', '[::1]:9092']);
  });

  it('SMTP_URL: an smtp:// or smtps:// URL', () => {
    expect(loadSettings({ SMTP_URL: 'smtp://localhost:2525' }).SMTP_URL).toBe('smtp://localhost:2525');
    expect(loadSettings({ SMTP_URL: 'smtps://user:pass@mail.example.com:465' }).SMTP_URL).toBe(
      'smtps://user:pass@mail.example.com:465',
    );
  });

  it('REDIS_URL: a redis:// or rediss:// URL', () => {
    expect(loadSettings({ REDIS_URL: 'redis://127.0.0.1:6379/0' }).REDIS_URL).toBe(
      'redis://127.0.0.1:6379/0',
    );
    expect(loadSettings({ REDIS_URL: 'rediss://:pw@cache.example.com:6380' }).REDIS_URL).toBe(
      'rediss://:pw@cache.example.com:6380',
    );
  });

  it('METRICS_TOKEN: at least 16 characters', () => {
    expect(loadSettings({ METRICS_TOKEN: 'a-metrics-token-16' }).METRICS_TOKEN).toBe('a-metrics-token-16');
  });

  it('READY_MAX_LAG_SECONDS: whole seconds from 1 to 86400', () => {
    expect(loadSettings({ READY_MAX_LAG_SECONDS: '30' }).READY_MAX_LAG_SECONDS).toBe(30);
    expect(loadSettings({ READY_MAX_LAG_SECONDS: '86400' }).READY_MAX_LAG_SECONDS).toBe(86_400);
  });

  it('DATABASE_LOST_UNHEALTHY_SECONDS: whole seconds from 1 to 86400', () => {
    expect(loadSettings({ DATABASE_LOST_UNHEALTHY_SECONDS: '120' }).DATABASE_LOST_UNHEALTHY_SECONDS).toBe(
      120,
    );
    expect(() => loadSettings({ DATABASE_LOST_UNHEALTHY_SECONDS: '0' })).toThrow(
      /DATABASE_LOST_UNHEALTHY_SECONDS/,
    );
  });

  it('retention periods: whole days from 1 to 3650', () => {
    for (const name of [
      'DELIVERY_LOG_RETENTION_DAYS',
      'PROCESSED_EVENTS_RETENTION_DAYS',
      'AUTOMATION_RUN_RETENTION_DAYS',
      'TIMER_RETENTION_DAYS',
      'MAIL_RETENTION_DAYS',
    ] as const) {
      expect(loadSettings({ [name]: '7' })[name]).toBe(7);
      expect(loadSettings({ [name]: '3650' })[name]).toBe(3650);
      for (const bad of ['0', '3651', '1.5', '-3', 'week']) {
        expect(refusal({ [name]: bad })).toContain(`${name}="${bad}": expected whole days from 1 to 3650`);
      }
    }
  });

  it('ADMIN_TOKEN: any non-blank text of at least 32 characters', () => {
    const token = 's3cret-token-of-32-characters-ok';
    expect(token).toHaveLength(32);
    expect(loadSettings({ ADMIN_TOKEN: token }).ADMIN_TOKEN).toBe(token);
  });

  it('TRUST_PROXY: off, a number of proxy hops (on means 1), or proxy addresses and CIDR ranges', () => {
    for (const value of ['off', 'false', '0', 'OFF'])
      expect(loadSettings({ TRUST_PROXY: value }).TRUST_PROXY).toBe(false);
    for (const value of ['on', 'true', '1', 'ON', ' on '])
      expect(loadSettings({ TRUST_PROXY: value }).TRUST_PROXY).toBe(1);
    expect(loadSettings({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadSettings({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
  });

  it.each(['RATE_LIMITS', 'TEST_CLOCK'] as const)('%s: on/off, true/false and 1/0, in any case', (name) => {
    for (const value of ['on', 'true', '1', 'ON', 'True', ' on ']) {
      expect(loadSettings({ [name]: value })[name], value).toBe(true);
    }
    for (const value of ['off', 'false', '0', 'OFF', 'False']) {
      expect(loadSettings({ [name]: value })[name], value).toBe(false);
    }
  });

  it('HOOK_TARGET_ALLOWLIST: a comma-separated list of hosts, lower-cased', () => {
    expect(
      loadSettings({ HOOK_TARGET_ALLOWLIST: 'localhost, 127.0.0.1,Hooks.Test.Local,' }).HOOK_TARGET_ALLOWLIST,
    ).toEqual(['localhost', '127.0.0.1', 'hooks.test.local']);
  });

  it('PUBLIC_URL: an http(s) URL without a trailing slash, by default http://HOST:PORT', () => {
    expect(loadSettings({ PUBLIC_URL: 'https://onboard.example.com/' }).PUBLIC_URL).toBe(
      'https://onboard.example.com',
    );
    expect(loadSettings({ PUBLIC_URL: 'http://localhost:8080/base' }).PUBLIC_URL).toBe(
      'http://localhost:8080/base',
    );
    expect(loadSettings({ HOST: '0.0.0.0', PORT: '8080' }).PUBLIC_URL).toBe('http://0.0.0.0:8080');
    expect(loadSettings({ HOST: '::1', PORT: '8080' }).PUBLIC_URL).toBe('http://[::1]:8080');
  });

  it('DATA_DIR and LOG_LEVEL (outside the table): the embedded data folder and the log level', () => {
    expect(loadSettings({ DATA_DIR: '/var/lib/onboarding' }).DATA_DIR).toBe('/var/lib/onboarding');
    expect(loadSettings({ LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('debug');
    expect(loadSettings({ LOG_LEVEL: 'WARN' }).LOG_LEVEL).toBe('warn');
  });
});

describe('bad values stop the start with a message naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'localhost:5432'],
    ['DATABASE_URL', 'postgres//missing-colon'],
    ['EVENTSTORE_URL', 'http://localhost:2113'],
    ['EVENTSTORE_URL', 'esdb://'],
    ['KAFKA_BROKERS', 'kafka'],
    ['KAFKA_BROKERS', 'a:9092,b'],
    ['KAFKA_BROKERS', 'kafka://a:9092'],
    ['REDIS_URL', 'http://cache:6379'],
    ['REDIS_URL', 'redis://'],
    ['METRICS_TOKEN', 'short'],
    ['READY_MAX_LAG_SECONDS', '0'],
    ['READY_MAX_LAG_SECONDS', '1.5'],
    ['READY_MAX_LAG_SECONDS', '86401'],
    ['SMTP_URL', 'http://mail'],
    ['SMTP_URL', 'smtp://'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1, proxy.internal'],
    ['RATE_LIMITS', 'yes'],
    ['TEST_CLOCK', '2'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'example.com'],
    ['LOG_LEVEL', 'loud'],
  ])('%s=%s', (name, value) => {
    const message = refusal({ [name]: value });
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
    expect(message.split('\n')).toHaveLength(2);
  });

  it('says what PORT expects', () => {
    expect(refusal({ PORT: 'abc' })).toBe(
      'Invalid settings:\n  PORT="abc": expected a port number from 0 to 65535',
    );
  });

  it('says what a boolean expects', () => {
    expect(refusal({ RATE_LIMITS: 'maybe' })).toContain(
      'RATE_LIMITS="maybe": expected on/off, true/false or 1/0',
    );
  });

  it('says what TRUST_PROXY expects', () => {
    expect(refusal({ TRUST_PROXY: 'maybe' })).toContain(
      'TRUST_PROXY="maybe": expected off, the number of proxies in front of the service (1 to 10; on means 1), or a comma list of their addresses or CIDR ranges (e.g. 10.0.0.0/8)',
    );
  });

  it('an ADMIN_TOKEN under 32 characters stops the start, without echoing the token', () => {
    const short = 'a-31-character-admin-token-here';
    expect(short).toHaveLength(31);
    const message = refusal({ ADMIN_TOKEN: short });
    expect(message).toBe(
      'Invalid settings:\n  ADMIN_TOKEN=(hidden): expected at least 32 characters (make one with: openssl rand -hex 32)',
    );
    expect(message).not.toContain(short);
  });

  it('names every bad variable at once', () => {
    const message = refusal({ PORT: 'abc', TRUST_PROXY: 'maybe', DATABASE_URL: 'mysql://x', HOST: 'ok' });
    expect(message).toContain('PORT=');
    expect(message).toContain('TRUST_PROXY=');
    expect(message).toContain('DATABASE_URL=');
    expect(message).not.toContain('HOST=');
  });

  it('does not echo the password of a refused URL', () => {
    const message = refusal({ DATABASE_URL: 'mysql://app:hunter2@db/app' });
    expect(message).toContain('DATABASE_URL="mysql://app:***@db/app"');
    expect(message).not.toContain('hunter2');
  });

  it('SERVICE_ROLE: all by default, api or worker, anything else refused', () => {
    expect(loadSettings({}).SERVICE_ROLE).toBe('all');
    expect(loadSettings({ SERVICE_ROLE: 'API' }).SERVICE_ROLE).toBe('api');
    expect(loadSettings({ SERVICE_ROLE: 'worker' }).SERVICE_ROLE).toBe('worker');
    expect(refusal({ SERVICE_ROLE: 'relay' })).toBe(
      'Invalid settings:\n  SERVICE_ROLE="relay": expected all, api or worker',
    );
  });
});
