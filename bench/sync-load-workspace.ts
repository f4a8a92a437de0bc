import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { pullResponseSchema, type SyncChange } from '@docket/protocol/sync-changes';
import { syncPaths } from '@docket/protocol/sync-wire';
import {
  createWorkspaceRequestSchema,
  confirmMemberRequestSchema,
  memberListResponseSchema,
  putMemberKeysRequestSchema,
  workspacePaths,
  workspacePullResponseSchema,
  workspaceSummarySchema,
} from '@docket/protocol/workspaces';
import { apiHeaders, expectOk, signIn, signUp } from './sync-bench-docket.ts';
import { alignColumns, msText, spreadOf, type PhaseFigures } from './sync-load-stats.ts';

// The load test's team workspace (issue 39): WORKSPACE_MEMBERS accounts of one workspace, set up
// through the HTTP API as packages/server/test/workspaces.test.ts does it. Each member signs up,
// follows the verification link (only a verified address may accept an invitation), signs in
// and publishes member keys; the first creates the workspace with a sealed name and key, invites
// the others as editors, and confirms each once they accepted, with a sealed key and a
// confirmation. Sealed things are random bytes (or AES-GCM under a throwaway key): the server
// cannot tell. The verification e-mails come through the servers' SMTP_URL to a mailbox here,
// since the servers log at warn and the link is logged at info.

/** A member of the workspace: their session, which the member's one device uses. */
export interface WorkspaceMember {
  readonly userId: string;
  readonly email: string;
  readonly cookie: string;
  /** Which server process the member was set up through. */
  readonly server: number;
}

export interface LoadWorkspace {
  readonly id: string;
  /** The key version: the epoch of every push to the workspace's log. */
  readonly keyVersion: number;
  readonly members: readonly WorkspaceMember[];
}

/** The change log a device syncs: its account's own, or the team workspace's. */
export interface SyncLog {
  readonly push: string;
  readonly pull: string;
  /** Put before its routes' names: '' or 'workspace '. */
  readonly label: string;
  readonly workspace: boolean;
}

export const personalLog: SyncLog = {
  push: syncPaths.push,
  pull: syncPaths.pull,
  label: '',
  workspace: false,
};

/** The workspace's change log: the personal log's protocol under the workspace's path. */
export function workspaceLog(id: string): SyncLog {
  const base = `${workspacePaths.workspaces}/${id}/sync`;
  return { push: `${base}/push`, pull: `${base}/pull`, label: 'workspace ', workspace: true };
}

/** A pull's answer, checked with its log's schema (a workspace's changes name their author). */
export function pullPage(
  log: SyncLog,
  text: string,
): { changes: SyncChange[]; hasMore: boolean; latestSeqno: number } {
  const body: unknown = JSON.parse(text);
  return log.workspace ? workspacePullResponseSchema.parse(body) : pullResponseSchema.parse(body);
}

/** Each phase's pushes and pulls, the personal logs' and the workspace's, one row each. */
export function sideBySide(
  phases: readonly PhaseFigures[],
  devices: { personal: string; workspace: string },
): string[] {
  const count = (value: number) => value.toLocaleString('en-US');
  return alignColumns([
    ['phase', 'log', 'pushes', 'p50 ms', 'p99 ms', 'pulls', 'p50 ms', 'p99 ms', 'devices'],
    ...phases.flatMap((figures) =>
      [
        ['personal', '', devices.personal],
        ['workspace', 'workspace ', devices.workspace],
      ].map(([log = '', label = '', which = '']) => {
        const pushes = spreadOf(figures.latencies(`${label}push`));
        const pulls = spreadOf(figures.latencies(`${label}pull`));
        return [
          figures.name,
          log,
          count(pushes.count),
          msText(pushes.p50),
          msText(pushes.p99),
          count(pulls.count),
          msText(pulls.p50),
          msText(pulls.p99),
          which,
        ];
      }),
    ),
  ]);
}

/** A loopback SMTP server that keeps each recipient's verification link. */
export interface Mailbox {
  /** SMTP_URL for the servers. */
  readonly url: string;
  linkFor(email: string): Promise<string>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const links = new Map<string, string>();
  const waiting = new Map<string, (link: string) => void>();
  const deliver = (recipients: readonly string[], message: string) => {
    const split = message.indexOf('\r\n\r\n');
    const headers = message.slice(0, split);
    let body = message.slice(split + 4);
    if (/^content-transfer-encoding:\s*base64/im.test(headers)) {
      body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    } else if (/^content-transfer-encoding:\s*quoted-printable/im.test(headers)) {
      body = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    const link = /confirm your e-mail address: (\S+)/.exec(body)?.[1];
    if (link === undefined) return;
    for (const recipient of recipients) {
      links.set(recipient, link);
      waiting.get(recipient)?.(link);
    }
  };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let recipients: string[] = [];
    reply('220 sync-load mailbox');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          deliver(recipients, buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.'));
          buffer = buffer.slice(end + 5);
          inData = false;
          recipients = [];
          reply('250 OK');
          continue;
        }
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'RCPT') {
          const address = /<([^>]*)>/.exec(line)?.[1];
          if (address !== undefined) recipients.push(address.toLowerCase());
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        } else {
          // EHLO, HELO, MAIL, RSET, NOOP: no extensions, so no STARTTLS and no AUTH.
          reply('250 OK');
        }
      }
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    linkFor: (email) => {
      const known = links.get(email);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`No verification e-mail for ${email} in 60 s`));
        }, 60_000);
        waiting.set(email, (link) => {
          clearTimeout(timer);
          resolve(link);
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A name sealed as a device would: AES-256-GCM under a key the server never sees. */
function sealName(name: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  return Buffer.concat([
    iv,
    cipher.update(name, 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]).toString('base64');
}

const sealedKey = () => randomBytes(97).toString('base64');

async function call(
  origin: string,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const headers = apiHeaders(cookie);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return expectOk(response, `${method} ${path}`);
}

/**
 * Signs up `count` members through the servers in turn, verifies and signs each in, and makes
 * the workspace: the first member its owner, the others confirmed editors.
 */
export async function makeWorkspace(
  origins: readonly string[],
  count: number,
  run: string,
  mailbox: Mailbox,
): Promise<LoadWorkspace> {
  const originOf = (server: number) => origins[server] ?? '';
  const members: (WorkspaceMember & { publicKey: string })[] = [];
  const make = async (index: number) => {
    const server = index % origins.length;
    const origin = originOf(server);
    const email = `load-${run}-ws-${index}@example.test`;
    await signUp(origin, email);
    const link = new URL(await mailbox.linkFor(email));
    const verified = await fetch(`${origin}${link.pathname}${link.search}`, { redirect: 'manual' });
    if (verified.status !== 302) throw new Error(`Verifying ${email} answered ${verified.status}`);
    const session = await signIn(origin, email);
    const keys = putMemberKeysRequestSchema.parse({
      publicKey: randomBytes(65).toString('base64'),
      wrappedPrivateKey: randomBytes(120).toString('base64'),
      keyEpoch: 0,
    });
    await call(origin, session.cookie, 'PUT', workspacePaths.keys, keys);
    members[index] = { ...session, email, server, publicKey: keys.publicKey };
  };
  const indexes = Array.from({ length: count }, (_, index) => index);
  for (let start = 0; start < count; start += 8) {
    await Promise.all(indexes.slice(start, start + 8).map(make));
  }
  const [owner, ...others] = members;
  if (owner === undefined) throw new Error('The workspace has no owner');
  const ownerOrigin = originOf(owner.server);
  const id = randomUUID();
  const one = `${workspacePaths.workspaces}/${id}`;
  workspaceSummarySchema.parse(
    await call(
      ownerOrigin,
      owner.cookie,
      'POST',
      workspacePaths.workspaces,
      createWorkspaceRequestSchema.parse({
        id,
        sealedName: sealName('Load test team'),
        sealedKey: sealedKey(),
      }),
    ),
  );
  for (const other of others) {
    await call(ownerOrigin, owner.cookie, 'POST', `${one}/invitations`, {
      email: other.email,
      role: 'editor',
    });
  }
  await Promise.all(
    others.map((other) =>
      call(
        originOf(other.server),
        other.cookie,
        'POST',
        `${workspacePaths.invitations}/${id}/accept`,
      ),
    ),
  );
  const { keyVersion } = memberListResponseSchema.parse(
    await call(ownerOrigin, owner.cookie, 'GET', `${one}/members`),
  );
  for (const other of others) {
    await call(
      ownerOrigin,
      owner.cookie,
      'POST',
      `${one}/members/${other.userId}/confirm`,
      confirmMemberRequestSchema.parse({
        keyVersion,
        publicKey: other.publicKey,
        sealedKey: sealedKey(),
        confirmation: randomBytes(93).toString('base64'),
      }),
    );
  }
  return {
    id,
    keyVersion,
    members: members.map(({ userId, email, cookie, server }) => ({
      userId,
      email,
      cookie,
      server,
    })),
  };
}
