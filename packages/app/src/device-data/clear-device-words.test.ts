import { describe, expect, it } from 'vitest';
import { accountsWords, clearDeviceMessage, unsyncedOf } from './clear-device-words.ts';

const none = {
  bills: 0,
  datasets: 0,
  tags: 0,
  positions: 0,
  decisions: 0,
  annotations: 0,
  fullBackups: 0,
  unsynced: 0,
};

describe('"Clear this device?", in words', () => {
  it('counts the unsynced changes of every account and of the data no account owns', () => {
    const holdings = {
      accounts: [
        { ...none, unsynced: 2 },
        { ...none, unsynced: 1 },
      ],
      unowned: { ...none, unsynced: 4 },
    };
    expect(unsyncedOf(holdings)).toBe(7);
    expect(unsyncedOf({ accounts: [], unowned: null })).toBe(0);
  });

  it('names one account or several', () => {
    expect(accountsWords([none])).toBe('the work of 1 account');
    expect(accountsWords([none, none])).toBe('the work of 2 accounts');
  });

  it('names every account and the data no account owns, and warns of unsynced changes', () => {
    const unowned = { ...none, bills: 3, unsynced: 1 };
    expect(clearDeviceMessage({ accounts: [none], unowned }, unowned)).toBe(
      'Everything Docket keeps on this device is deleted: the work of 1 account and data no ' +
        'account owns (3 bills), with their traces and drafts. 1 change was never synced and ' +
        'will be lost. What was synced stays on the server. This cannot be undone.',
    );
  });

  it('says nothing of unsynced changes when there are none', () => {
    const holdings = { accounts: [none, none], unowned: null };
    expect(clearDeviceMessage(holdings, null)).toBe(
      'Everything Docket keeps on this device is deleted: the work of 2 accounts, with their ' +
        'traces and drafts. What was synced stays on the server. This cannot be undone.',
    );
  });
});
