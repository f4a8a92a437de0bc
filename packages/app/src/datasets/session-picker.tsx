import { IonButton } from '@ionic/react';
import { isLegiscanState } from '@docket/core/sources';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
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

/** The elements focus can be asked to, and the asking. */
interface RequestedFocus {
  readonly manualRef: RefObject<HTMLDivElement | null>;
  readonly selectRef: RefObject<HTMLSelectElement | null>;
  readonly statusRef: RefObject<HTMLParagraphElement | null>;
  readonly askFocus: (to: FocusTarget) => void;
}

/**
 * Focus asked by the buttons, whose own element leaves the page with the face they change.
 * Ionic's input draws its native field a few frames after React mounts it, so focus is tried
 * each frame until the field is there, unless the person went elsewhere meanwhile (as
 * tag-name-field.tsx).
 */
function useRequestedFocus(): RequestedFocus {
  const manualRef = useRef<HTMLDivElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
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
  const askFocus = (to: FocusTarget) => {
    setFocusAsked({ to });
  };
  return { manualRef, selectRef, statusRef, askFocus };
}

/** The add-dataset form's "Session": picked from the source's list, or its id typed by hand. */
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
  const saved = useApiKey(source);
  const key = saved === undefined ? undefined : (saved?.key ?? null);
  const request = sessionListRequest(source, place);
  const { state, retry } = useSourceSessions(request, key);
  const [manual, setManual] = useState(false);
  const byHand = manual || key === null;
  const name = sourceNames[source];
  const { manualRef, selectRef, statusRef, askFocus } = useRequestedFocus();

  if (byHand) {
    return (
      <ManualSessionEntry
        name={name}
        keyMissing={key === null}
        manualField={manualField}
        manualRef={manualRef}
        onPickFromList={() => {
          setManual(false);
          askFocus('list');
        }}
      />
    );
  }

  const statusId = `${ids}-status`;
  const status = statusWords(source, request, state, key !== undefined);
  return (
    <div className="session-picker">
      <SessionSelect
        selectId={`${ids}-session`}
        statusId={statusId}
        state={state}
        value={value}
        onPick={onPick}
        error={error}
        errorId={errorId}
        selectRef={selectRef}
      />
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
      <SessionListActions
        failed={state.kind === 'failed'}
        onRetry={() => {
          retry();
          askFocus('status');
        }}
        onEnterByHand={() => {
          setManual(true);
          askFocus('manual');
        }}
      />
    </div>
  );
}

/** Under the list: "Try again" once asking for it failed, and typing the id by hand instead. */
function SessionListActions({
  failed,
  onRetry,
  onEnterByHand,
}: {
  readonly failed: boolean;
  readonly onRetry: () => void;
  readonly onEnterByHand: () => void;
}) {
  return (
    <div className="screen-actions">
      {failed && (
        <IonButton type="button" onClick={onRetry}>
          Try again
        </IonButton>
      )}
      <IonButton type="button" fill="outline" onClick={onEnterByHand}>
        Enter the session ID instead
      </IonButton>
    </div>
  );
}

/** The session's id typed by hand, and the way back to the source's list when a key is saved. */
function ManualSessionEntry({
  name,
  keyMissing,
  manualField,
  manualRef,
  onPickFromList,
}: {
  /** The source's name: "LegiScan", "Open States". */
  readonly name: string;
  /** No key for the source is saved: the list cannot be asked for. */
  readonly keyMissing: boolean;
  readonly manualField: ReactNode;
  readonly manualRef: RefObject<HTMLDivElement | null>;
  readonly onPickFromList: () => void;
}) {
  return (
    <div className="session-picker">
      <div ref={manualRef}>{manualField}</div>
      {keyMissing ? (
        <p className="field-hint">
          With your {name} API key saved, the form lists {name}&apos;s sessions to pick from.
        </p>
      ) : (
        <div className="screen-actions">
          <IonButton type="button" fill="outline" onClick={onPickFromList}>
            Pick the session from {name}&apos;s list
          </IonButton>
        </div>
      )}
    </div>
  );
}

/**
 * The source's sessions to pick from, once it has listed any; a stored session it does not list
 * stays picked, said as such.
 */
function SessionSelect({
  selectId,
  statusId,
  state,
  value,
  onPick,
  error,
  errorId,
  selectRef,
}: {
  readonly selectId: string;
  readonly statusId: string;
  readonly state: SessionsState;
  readonly value: string;
  readonly onPick: (id: string) => void;
  readonly error: string | undefined;
  readonly errorId: string;
  readonly selectRef: RefObject<HTMLSelectElement | null>;
}) {
  const sessions = state.kind === 'loaded' ? state.sessions : [];
  const listed = sessions.some((session) => session.id === value.trim());
  if (sessions.length === 0) return null;
  return (
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
  );
}
