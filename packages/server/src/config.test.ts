import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to a local server on PGlite in ./data of where npm was run', () => {
    const config = loadConfig({ INIT_CWD: '/home/me/docket' });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: join('/home/me/docket', 'data'),
      databaseUrl: null,
      publicUrl: 'http://127.0.0.1:8080',
      betterAuthSecret: null,
      smtpUrl: null,
      requireEmailVerification: false,
      authRateLimitMax: 30,
      trustedOrigins: [],
      sentryOrigin: null,
      trustProxy: false,
      syncHeartbeatMs: 25_000,
    });
    expect(config.appDir).toMatch(/packages[/\\]app[/\\]dist$/);
    // People type localhost as often as 127.0.0.1; both must be able to sign in.
    expect(config.publicOrigins).toContain('http://localhost:8080');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DOCKET_DATA_DIR: '/var/lib/docket',
      DATABASE_URL: 'postgres://u:p@db:5432/docket',
      PUBLIC_URL: 'https://docket.example.org/',
      TRUSTED_ORIGINS: 'capacitor://localhost, https://app.example.org/',
      BETTER_AUTH_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://mail.example.org:587',
      MAIL_FROM: 'Docket <docket@example.org>',
      REQUIRE_EMAIL_VERIFICATION: 'true',
      AUTH_RATE_LIMIT_MAX: '100',
      DOCKET_APP_DIR: '/srv/docket-app',
      VITE_SENTRY_DSN: 'https://key@o1.ingest.sentry.io/2',
      TRUST_PROXY: '1',
      SYNC_HEARTBEAT_SECONDS: '10',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/var/lib/docket',
      databaseUrl: 'postgres://u:p@db:5432/docket',
      publicUrl: 'https://docket.example.org',
      publicOrigins: ['https://docket.example.org'],
      trustedOrigins: ['capacitor://localhost', 'https://app.example.org'],
      smtpUrl: 'smtp://mail.example.org:587',
      mailFrom: 'Docket <docket@example.org>',
      requireEmailVerification: true,
      authRateLimitMax: 100,
      appDir: '/srv/docket-app',
      sentryOrigin: 'https://o1.ingest.sentry.io',
      trustProxy: 1,
      syncHeartbeatMs: 10_000,
    });
  });

  it('builds a usable public URL when listening on every interface', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8081' }).publicUrl).toBe('http://localhost:8081');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
  });

  it('allows the four sources’ hosts to the relay, and SOURCE_HOSTS as host[:port]', () => {
    const defaults = loadConfig({});
    expect(defaults.sourceHosts).toContainEqual({
      hostname: 'v3.openstates.org',
      port: null,
      named: false,
    });
    expect(defaults).toMatchObject({
      sourceMaxBytes: 200 * 1024 * 1024,
      sourceTempSpaceBytes: 1024 * 1024 * 1024,
      sourceTimeoutMs: 50_000,
      sourceFetchPerMinute: 60,
    });
    for (const space of ['0', '-5', 'lots']) {
      expect(() => loadConfig({ SOURCE_TEMP_SPACE_MIB: space }), space).toThrow(
        /Invalid server configuration: SOURCE_TEMP_SPACE_MIB: /,
      );
    }
    // Room for less than one answer could never serve the largest.
    expect(() => loadConfig({ SOURCE_TEMP_SPACE_MIB: '100' })).toThrow(
      /SOURCE_TEMP_SPACE_MIB must be at least SOURCE_MAX_MIB/,
    );
    // The relay answers 504 before the idle connection would be cut with no answer (issue 42).
    expect(defaults.sourceTimeoutMs).toBeLessThan(defaults.connectionTimeoutMs);
    for (const source of ['60', '61']) {
      expect(() => loadConfig({ SOURCE_TIMEOUT_SECONDS: source }), source).toThrow(
        /SOURCE_TIMEOUT_SECONDS must be shorter than CONNECTION_TIMEOUT_SECONDS/,
      );
    }
    expect(
      loadConfig({ SOURCE_TIMEOUT_SECONDS: '90', CONNECTION_TIMEOUT_SECONDS: '120' })
        .sourceTimeoutMs,
    ).toBe(90_000);
    const config = loadConfig({
      SOURCE_HOSTS: 'Mirror.example.org, 127.0.0.1:8123,[::1]:9000',
      SOURCE_MAX_MIB: '5',
      SOURCE_TEMP_SPACE_MIB: '5',
      SOURCE_TIMEOUT_SECONDS: '2.5',
      SOURCE_FETCH_PER_MINUTE: '10',
    });
    expect(config.sourceHosts.filter((host) => host.named)).toEqual([
      { hostname: 'mirror.example.org', port: null, named: true },
      { hostname: '127.0.0.1', port: 8123, named: true },
      { hostname: '[::1]', port: 9000, named: true },
    ]);
    expect(config).toMatchObject({
      sourceMaxBytes: 5 * 1024 * 1024,
      sourceTempSpaceBytes: 5 * 1024 * 1024,
      sourceTimeoutMs: 2500,
      sourceFetchPerMinute: 10,
    });
    for (const entry of ['https://x.org', 'x.org/path', 'user@x.org', '127.1']) {
      expect(() => loadConfig({ SOURCE_HOSTS: entry }), entry).toThrow(/SOURCE_HOSTS entry/);
    }
  });

  it('caps connections per address (not behind a proxy unless set) and the pace of bodies', () => {
    expect(loadConfig({})).toMatchObject({
      maxConnectionsPerAddress: 50,
      bodyMinRate: { minBytes: 1024, windowMs: 10_000 },
    });
    // Behind a proxy every connection comes from the proxy's address.
    expect(loadConfig({ TRUST_PROXY: '1' }).maxConnectionsPerAddress).toBe(0);
    expect(
      loadConfig({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_ADDRESS: '400' })
        .maxConnectionsPerAddress,
    ).toBe(400);
    expect(
      loadConfig({
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        BODY_MIN_RATE_BYTES: '0',
        BODY_MIN_RATE_SECONDS: '2.5',
      }),
    ).toMatchObject({ maxConnectionsPerAddress: 0, bodyMinRate: { minBytes: 0, windowMs: 2500 } });
    const refused = {
      MAX_CONNECTIONS_PER_ADDRESS: ['-1', 'many', '2.5'],
      BODY_MIN_RATE_BYTES: ['-1', '1.5', 'a KiB'],
      BODY_MIN_RATE_SECONDS: ['0', '-1', 'ten', '3601'],
    };
    for (const [name, values] of Object.entries(refused)) {
      for (const value of values) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
          new RegExp(`Invalid server configuration: ${name}: `),
        );
      }
    }
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ BETTER_AUTH_SECRET: 'short' })).toThrow(/BETTER_AUTH_SECRET/);
    expect(() => loadConfig({ AUTH_RATE_LIMIT_MAX: '0' })).toThrow(/AUTH_RATE_LIMIT_MAX/);
  });
});
