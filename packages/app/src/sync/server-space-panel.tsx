import type { AccountUsageResponse } from '@docket/protocol/account-usage';
import { useEffect, useState } from 'react';
import { fetchAccountUsage } from '../api/account-usage-api.ts';
import { useAppServices } from '../services/app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { serverSpaceLines } from './server-space-words.ts';
import './server-space.css';

// "Space on the server" on More: what the account uses of each of its quotas, read when the
// screen opens, so a person sees the room run short before a sync or a backup is refused.

type Reading =
  | { kind: 'reading' }
  | { kind: 'read'; usage: AccountUsageResponse }
  | { kind: 'failed'; message: string };

export function ServerSpacePanel() {
  const { api } = useAppServices();
  const online = useAppState((state) => state.online);
  const [reading, setReading] = useState<Reading>({ kind: 'reading' });
  useEffect(() => {
    if (!online) return;
    let current = true;
    fetchAccountUsage(api).then(
      (usage) => {
        if (current) setReading({ kind: 'read', usage });
      },
      (error: unknown) => {
        if (!current) return;
        const reason = error instanceof Error ? error.message : String(error);
        setReading({
          kind: 'failed',
          message: `The server's figures could not be read: ${reason}`,
        });
      },
    );
    return () => {
      current = false;
    };
  }, [api, online]);

  if (!online && reading.kind !== 'read') {
    return <p>Shown when this device is online.</p>;
  }
  if (reading.kind === 'reading') return <p role="status">Reading…</p>;
  if (reading.kind === 'failed') {
    return (
      <p className="field-error" role="alert">
        {reading.message}
      </p>
    );
  }
  return (
    <ul className="server-space">
      {serverSpaceLines(reading.usage).map((line) => (
        <li key={line.kind}>
          <span className="server-space-name">{line.name}</span>{' '}
          <span className="server-space-amount">{line.amount}</span>
          <meter min={0} max={1} value={line.share} aria-label={`${line.name}: ${line.amount}`} />
          {line.warning !== null && <p className="field-error">{line.warning}</p>}
        </li>
      ))}
    </ul>
  );
}
