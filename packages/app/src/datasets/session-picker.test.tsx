import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { SourceSession } from '@docket/core/sources';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionPicker, type SessionSource } from './session-picker.tsx';

// The add-dataset form's "Session" as a person meets it: the source's sessions listed once the
// key is saved and the state named, the one picked filling the form's field, a failure said with
// "Try again", and the id typed by hand instead. The list's download (load-source-sessions.ts)
// and the saved key are the boundary replaced here; the picker and its hook are the real ones.

const boundary = vi.hoisted(() => {
  const key: { current: string | null } = { current: 'the-key' };
  return { key, load: vi.fn() };
});
vi.mock('./load-source-sessions.ts', () => ({ loadSourceSessions: boundary.load }));
vi.mock('../local-store/live-api-keys.ts', () => ({
  useApiKey: (source: string) =>
    boundary.key.current === null ? null : { source, key: boundary.key.current },
}));
vi.mock('../services/app-services.ts', () => ({
  useAppServices: () => ({ platform: { sourceFetcher: null } }),
}));

const georgia: SourceSession[] = [
  { id: '2100', label: '2024 1st Special Session', special: true },
  { id: '2008', label: '2023–2024 Regular Session', special: false },
  { id: '1800', label: '2021–2022 Regular Session', special: false },
];

/** The picker inside a form that keeps what is picked or typed, as the add-dataset form does. */
function Form({
  source = 'legiscan',
  place,
  initial = '',
}: {
  source?: SessionSource;
  place: string;
  initial?: string;
}) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <SessionPicker
        source={source}
        place={place}
        value={value}
        onPick={setValue}
        error={undefined}
        errorId="session-error"
        manualField={
          <label>
            LegiScan session ID
            <input
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
              }}
            />
          </label>
        }
      />
      <span id="stored">{value}</span>
    </>
  );
}

const stored = () => document.getElementById('stored')?.textContent;
const waitLong = { timeout: 3000 };

beforeEach(() => {
  boundary.key.current = 'the-key';
  boundary.load.mockReset();
});
afterEach(cleanup);

describe('SessionPicker', () => {
  it('lists the state’s sessions newest first, in words, and stores the id of the one picked', async () => {
    boundary.load.mockResolvedValue(georgia);
    render(<Form place="ga" />);
    expect(screen.getByRole('status').textContent).toBe('Loading sessions…');
    const select = await screen.findByRole('combobox', { name: 'Session' }, waitLong);
    expect(boundary.load).toHaveBeenCalledTimes(1);
    expect(boundary.load.mock.calls[0]?.slice(0, 2)).toEqual([
      { source: 'legiscan', state: 'GA' },
      'the-key',
    ]);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Pick a session',
      '2024 1st Special Session',
      '2023–2024 Regular Session',
      '2021–2022 Regular Session',
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'LegiScan lists 3 sessions for GA, newest first.',
    );
    fireEvent.change(select, { target: { value: '2008' } });
    expect(stored()).toBe('2008');
    expect((select as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
      '2023–2024 Regular Session',
    );
  });

  it('asks nothing until the state is one, and says what it waits for', async () => {
    render(<Form place="Georgia" />);
    expect(screen.getByRole('status').textContent).toBe('Enter the state to see its sessions.');
    await act(() => new Promise((resolve) => setTimeout(resolve, 800)));
    expect(boundary.load).not.toHaveBeenCalled();
  });

  it('says why the list failed, tries again on request, and keeps the typed way open', async () => {
    boundary.load.mockRejectedValueOnce(
      new Error(
        "LegiScan's API could not be reached from this device. Check your connection and try again.",
      ),
    );
    boundary.load.mockResolvedValueOnce(georgia);
    render(<Form place="GA" />);
    expect((await screen.findByRole('alert', {}, waitLong)).textContent).toBe(
      "LegiScan's API could not be reached from this device. Check your connection and try again.",
    );
    expect(screen.queryByRole('combobox', { name: 'Session' })).toBeNull();
    expect(screen.getByText('Enter the session ID instead')).toBeTruthy();
    fireEvent.click(screen.getByText('Try again'));
    expect(screen.getByRole('status').textContent).toBe('Loading sessions…');
    expect(document.activeElement).toBe(screen.getByRole('status'));
    await screen.findByRole('combobox', { name: 'Session' }, waitLong);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(boundary.load).toHaveBeenCalledTimes(2);
  });

  it('takes the id by hand instead, focused, and goes back to the list without asking again', async () => {
    boundary.load.mockResolvedValue(georgia);
    render(<Form place="GA" />);
    await screen.findByRole('combobox', { name: 'Session' }, waitLong);
    fireEvent.click(screen.getByText('Enter the session ID instead'));
    const field = screen.getByLabelText('LegiScan session ID');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: '1843' } });
    expect(stored()).toBe('1843');
    fireEvent.click(screen.getByText("Pick the session from LegiScan's list"));
    const select = screen.getByRole('combobox', { name: 'Session' });
    expect(document.activeElement).toBe(select);
    // The typed id is not LegiScan's: shown as it is rather than lost unseen.
    expect((select as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
      'Session 1843, not in this list',
    );
    expect(boundary.load).toHaveBeenCalledTimes(1);
  });

  it('without a saved key, asks for the id by hand and says what a key would bring', async () => {
    boundary.key.current = null;
    render(<Form place="GA" />);
    expect(screen.getByLabelText('LegiScan session ID')).toBeTruthy();
    expect(
      screen.getByText(
        "With your LegiScan API key saved, the form lists LegiScan's sessions to pick from.",
      ),
    ).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 800)));
    expect(boundary.load).not.toHaveBeenCalled();
  });

  it('asks Open States for the jurisdiction as typed, and shows the stored session picked', async () => {
    boundary.load.mockResolvedValue([
      { id: '135', label: '135th General Assembly', special: false },
      { id: '134', label: '134th General Assembly', special: false },
    ]);
    render(<Form source="openstates" place=" Ohio " initial="135" />);
    const select = await screen.findByRole('combobox', { name: 'Session' }, waitLong);
    expect(boundary.load.mock.calls[0]?.[0]).toEqual({
      source: 'openstates',
      jurisdiction: 'Ohio',
    });
    expect((select as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
      '135th General Assembly',
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Open States lists 2 sessions for Ohio, newest first.',
    );
  });
});
