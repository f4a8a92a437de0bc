import { healthResponseSchema } from '@docket/protocol/health';
import { PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { expect, it } from 'vitest';
import { PGLITE_DURABILITY_WARNING } from '../src/app.ts';
import { setup, signUp } from './test-server.ts';

const server = setup();

it('reports the database kind and protocol version', async () => {
  const response = await server.app.inject({ method: 'GET', url: '/api/health' });
  expect(response.statusCode).toBe(200);
  expect(healthResponseSchema.parse(response.json())).toEqual({
    status: 'ok',
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    protocolVersion: PROTOCOL_VERSION,
  });
  expect(response.headers['cache-control']).toBe('no-store');
});

it('keeps one generated auth secret for every app on the same data folder', async () => {
  // Two processes on one machine behind a load balancer: a cookie signed by one must be
  // accepted by the other (they share DOCKET_DATA_DIR/auth-secret; see auth-secret.test.ts).
  const other = await server.build();
  try {
    const { cookie } = await signUp(server.app, `shared-${Date.now()}@example.test`);
    const viaOther = await other.app.inject({
      method: 'GET',
      url: '/api/terms/acceptance',
      headers: { cookie },
    });
    expect(viaOther.statusCode).toBe(200);
  } finally {
    await other.app.close();
  }
});

it('warns at start that PGlite does not make writes durable, and only on PGlite', () => {
  const warned = server.logs.some((line) => line.msg === PGLITE_DURABILITY_WARNING);
  expect(warned).toBe(!process.env.DATABASE_URL);
});
