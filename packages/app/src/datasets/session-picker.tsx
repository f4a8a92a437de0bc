import { IonButton } from '@ionic/react';
import { isLegiscanState } from '@docket/core/sources';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { SessionListRequest } from '../import-worker/session-list-download.ts';
import { useApiKey } from '../local-store/live-api-keys.ts';
import { plural } from '../ui/formatting.ts';
import { type SessionsState, useSourceSessions } from './use-source-sessions.ts';

// The add-dataset form's "Session" for a dataset of LegiScan's or Open States' API: once the key
// is saved and the state named, the source's own sessions, newest first and in words, to pick
// from; the chosen one's id fills the field the dataset always stored (LegiScan's session_id,
// Open States' identifier). While the list is asked the form says so; when it cannot be had, it
// says why, with "Try again", and the number can always be typed by hand instead.

export type SessionSource = SessionListRequest['source'];

const sourceNames: Record<SessionSource, string> = {
  legiscan: 'LegiScan',
  openstates: 'Open States',
};

/** What the source is asked for the place as typed; null while it names no place yet. */
export function sessionListRequest(
  source: SessionSource,
  place: string,
): SessionListRequest | null {
  if (source === 'legiscan') {
    const state = place.trim().toUpperCase();
    return isLegiscanState(state) ? { source, state } : null;
  }
  const jurisdiction = place.trim();
  return jurisdiction === '' || jurisdiction.length > 200 ? null : { source, jurisdiction };
}

function statusWords(
  source: SessionSource,
  request: SessionListRequest | null,
  state: SessionsState,
  keyRead: boolean,
): string {
  if (request === null) {
    return source === 'legiscan'
      ? 'Enter the state to see its sessions.'
      : 'Enter the jurisdiction to see its sessions.';
  }
  const place = request.source === 'legiscan' ? request.state : request.jurisdiction;
  switch (state.kind) {
    case 'idle':
      return keyRead ? '' : 'Loading sessions…';
    case 'loading':
      return 'Loading sessions…';
    case 'failed':
      return '';
    case 'loaded':
      return state.sessions.length === 0
        ? `${sourceNames[source]} lists no sessions for ${place}.`
        : `${sourceNames[source]} lists ${plural(state.sessions.length, 'session')} for ${place}, newest first.`;
  }
}

export interface SessionPickerProps {
  source: SessionSource;
  /** The state (LegiScan) or jurisdiction (Open States) as typed in the form. */
  place: string;
  /** The session's id as the form holds it. */
  value: string;
  onPick: (id: string) => void;
  /** The form's refusal of the session, shown under the list. */
  error: string | undefined;
  errorId: string;
  /** The field that takes the session's id by hand, with its own label and refusal. */
  manualField: ReactNode;
}

/** Where focus goes once the picker has changed its face at the person's request. */
type FocusTarget = 'manual' | 'list' | 'status';

export function SessionPicker({
  source,
  place,
  value,
  onPick,
  error,
  errorId,
  manualField,
}: SessionPickerProps) {
  const ids = useId();
  const selectId = `${ids}-session`;
  const statusId = `${ids}-status`;
  const saved = useApiKey(source);
  const key = saved === undefined ? undefined : (saved?.key ?? null);
  const request = sessionListRequest(source, place);
  const { state, retry } = useSourceSessions(request, key);
  const [manual, setManual] = useState(false);
  const byHand = manual || key === null;
  const name = sourceNames[source];

  const manualRef = useRef<HTMLDivElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  // Asked by the buttons, whose own element leaves the page with the face they change. Ionic's
  // input draws its native field a few frames after React mounts it, so focus is tried each frame
  // until the field is there, unless the person went elsewhere meanwhile (as tag-name-field.tsx).
  const [focusAsked, setFocusAsked] = useState<{ to: FocusTarget } | null>(null);
  useEffect(() => {
    if (focusAsked === null) return;
    const target = (): HTMLElement | null | undefined =>
      focusAsked.to === 'manual'
        ? manualRef.current?.querySelector<HTMLElement>('input, select, textarea')
        : focusAsked.to === 'list'
          ? (selectRef.current ?? statusRef.current)
          : statusRef.current;
    let frame = 0;
    let left = 60;
    const attempt = () => {
      const field = target();
      const active = document.activeElement;
      if (field != null && active === field) return;
      if (active !== null && active !== document.body) return;
      field?.focus();
      if (--left > 0) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [focusAsked]);

  if (byHand) {
    return (
      <div className="session-picker">
        <div ref={manualRef}>{manualField}</div>
        {key === null ? (
          <p className="field-hint">
            With your {name} API key saved, the form lists {name}&apos;s sessions to pick from.
          </p>
        ) : (
          <div className="screen-actions">
            <IonButton
              type="button"
              fill="outline"
              onClick={() => {
                setManual(false);
                setFocusAsked({ to: 'list' });
              }}
            >
              Pick the session from {name}&apos;s list
            </IonButton>
          </div>
        )}
      </div>
    );
  }

  const sessions = state.kind === 'loaded' ? state.sessions : [];
  const listed = sessions.some((session) => session.id === value.trim());
  const status = statusWords(source, request, state, key !== undefined);
  return (
    <div className="session-picker">
      {sessions.length > 0 && (
        <div className="form-field">
          <label htmlFor={selectId}>Session</label>
          <select
            ref={selectRef}
            id={selectId}
            value={listed ? value.trim() : value}
            aria-describedby={[statusId, error === undefined ? null : errorId]
              .filter(Boolean)
              .join(' ')}
            aria-invalid={error === undefined ? undefined : true}
            onChange={(event) => {
              onPick(event.target.value);
            }}
          >
            <option value="">Pick a session</option>
            {listed || value.trim() === '' ? null : (
              <option value={value}>Session {value}, not in this list</option>
            )}
            {sessions.map((session) => (
              <option key={session.id} value={session.id}>
                {session.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <p id={statusId} ref={statusRef} className="field-hint" role="status" tabIndex={-1}>
        {status}
      </p>
      {state.kind === 'failed' && (
        <p className="field-error" role="alert">
          {state.message}
        </p>
      )}
      {error !== undefined && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      <div className="screen-actions">
        {state.kind === 'failed' && (
          <IonButton
            type="button"
            onClick={() => {
              retry();
              setFocusAsked({ to: 'status' });
            }}
          >
            Try again
          </IonButton>
        )}
        <IonButton
          type="button"
          fill="outline"
          onClick={() => {
            setManual(true);
            setFocusAsked({ to: 'manual' });
          }}
        >
          Enter the session ID instead
        </IonButton>
      </div>
    </div>
  );
}
