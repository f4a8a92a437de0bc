import { describe, expect, it } from 'vitest';
import { BillCommandError } from '../commands/bill-command-context.ts';
import { newDataKey, testDevice } from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { apiKeyHint, apiKeyProblem, readApiKey, removeApiKey, saveApiKey } from './api-keys.ts';

const KEY = '0123456789abcdef0123456789abcdef';

describe('API keys', () => {
  it('are saved, replaced and removed through the outbox, and reach a second device sealed', async () => {
    const log = new TestSyncLog();
    const key = await newDataKey();
    const a = await testDevice('device-a', log, key);
    const b = await testDevice('device-b', log, key);

    await saveApiKey(a.context, 'legiscan', `  ${KEY}  `);
    expect(await readApiKey(a.store, 'legiscan')).toBe(KEY);
    expect(await readApiKey(a.store, 'openstates')).toBeNull();
    const outbox = await a.store.read(['outbox'], (tx) => tx.all('outbox'));
    expect(outbox.map((entry) => [entry.table, entry.rowId, entry.op])).toEqual([
      ['apiKeys', 'legiscan', 'put'],
    ]);

    await a.sync();
    // What the server holds is sealed: the key is nowhere in it.
    expect(JSON.stringify(log.changes)).not.toContain(KEY);
    await b.sync();
    expect(await readApiKey(b.store, 'legiscan')).toBe(KEY);

    await saveApiKey(b.context, 'legiscan', 'replaced-key-0000');
    await b.sync();
    await a.sync();
    expect(await readApiKey(a.store, 'legiscan')).toBe('replaced-key-0000');

    await removeApiKey(a.context, 'legiscan');
    expect(await readApiKey(a.store, 'legiscan')).toBeNull();
    await a.sync();
    await b.sync();
    expect(await readApiKey(b.store, 'legiscan')).toBeNull();
  });

  it('saving the same key again writes nothing', async () => {
    const a = await testDevice('device-a', new TestSyncLog(), await newDataKey());
    await saveApiKey(a.context, 'openstates', KEY);
    await saveApiKey(a.context, 'openstates', KEY);
    expect(await a.store.read(['outbox'], (tx) => tx.count('outbox'))).toBe(1);
  });

  it('refuses an empty key or one with spaces, saying so', async () => {
    const a = await testDevice('device-a', new TestSyncLog(), await newDataKey());
    await expect(saveApiKey(a.context, 'legiscan', '   ')).rejects.toThrow(BillCommandError);
    expect(apiKeyProblem('legiscan', '')).toBe('Enter your LegiScan API key.');
    expect(apiKeyProblem('openstates', 'two words')).toBe(
      'An Open States API key is letters, digits and symbols, without spaces.',
    );
    expect(apiKeyProblem('legiscan', KEY)).toBeNull();
    expect(await readApiKey(a.store, 'legiscan')).toBeNull();
  });

  it('hints at a saved key by its last four characters only', () => {
    expect(apiKeyHint(KEY)).toBe('••••cdef');
    expect(apiKeyHint('short')).toBe('•••••');
  });
});
