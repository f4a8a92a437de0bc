import {
  type AutoRefreshHours,
  autoRefreshChoices,
  DEVICE_PREFERENCES_SETTING,
  type DevicePreferences,
  devicePreferencesOf,
  saveDevicePreferences,
} from '@docket/core/device';
import { useEffect, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { useSetting } from '../local-store/live-settings.ts';
import {
  backgroundRefreshState,
  type BackgroundRefreshState,
} from '../changes/periodic-refresh.ts';
import { useAppServices, type AppServices } from '../services/app-services.ts';
import './device-settings.css';
import { FormError } from '../ui/form-error.tsx';
import { IonToggle } from '../ui/ionic/ion-toggle.ts';
import { IonNote } from '../ui/ionic/ion-note.ts';

// The More tab's Settings: this device's choices about fresh data (core's device-preferences.ts):
// the relay through the Docket server, automatic refresh, and alerts when followed bills change.

const refreshWords: Record<AutoRefreshHours, string> = {
  0: 'Off',
  1: 'Every hour',
  6: 'Every 6 hours',
  24: 'Every 24 hours',
};

const backgroundRefreshWords: Record<BackgroundRefreshState, string> = {
  allowed:
    ' Refreshes in the background too: this browser runs the refresh while Docket is closed.',
  'not-allowed':
    ' Refreshes only while Docket is open: installed as an app (Install or Add to Home screen in the browser’s menu), Docket can refresh in the background too.',
  unsupported: ' Refreshes only while Docket is open: this browser offers no background refresh.',
};

/** Whether this browser refreshes in the background (periodic background sync); null while
 *  asking. The native shells have no service worker, so they do not. */
function useBackgroundRefresh(usesServiceWorker: boolean): BackgroundRefreshState | null {
  const [state, setState] = useState<BackgroundRefreshState | null>(null);
  useEffect(() => {
    let live = true;
    void (
      usesServiceWorker ? backgroundRefreshState() : Promise.resolve('unsupported' as const)
    ).then(
      (answer) => {
        if (live) setState(answer);
      },
      () => {
        if (live) setState('unsupported');
      },
    );
    return () => {
      live = false;
    };
  }, [usesServiceWorker]);
  return state;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The platform's alerts: whether they may be shown, and asking for them. */
type DeviceAlerts = AppServices['platform']['alerts'];

/** Writes a change of the preferences; says when it is written, or why it could not be. */
type SavePreferences = (change: Partial<DevicePreferences>) => void;

/** The relay through the Docket server, for sources that refuse the app's own download. */
function RelaySetting(props: { readonly checked: boolean; readonly save: SavePreferences }) {
  const { checked, save } = props;
  return (
    <div className="device-setting">
      <IonToggle
        checked={checked}
        aria-describedby="setting-relay-note"
        onIonChange={(event) => {
          save({ sourceRelay: event.detail.checked });
        }}
      >
        Relay source downloads through the Docket server
      </IonToggle>
      <IonNote id="setting-relay-note">
        When a site does not let the app download a dataset's file itself, the Docket server
        downloads it instead. The server then sees the source's address, never your data.
      </IonNote>
    </div>
  );
}

/** How often datasets refresh by themselves, and whether this browser does it in the background. */
function AutoRefreshSetting(props: {
  readonly hours: AutoRefreshHours;
  readonly inBackground: BackgroundRefreshState | null;
  readonly save: SavePreferences;
}) {
  const { hours: chosen, inBackground, save } = props;
  return (
    <div className="device-setting">
      {/* The browser's own select, not Ionic's: Ionic's brings its popover and action sheet
          into the first screen's script (every Ionic component the app uses lands there). */}
      <label className="device-setting-label" htmlFor="setting-auto-refresh">
        Refresh datasets automatically
      </label>
      <select
        id="setting-auto-refresh"
        className="device-setting-select"
        aria-describedby="setting-auto-refresh-note"
        value={chosen}
        onChange={(event) => {
          const hours = autoRefreshChoices.find((choice) => choice === Number(event.target.value));
          if (hours !== undefined) save({ autoRefreshHours: hours });
        }}
      >
        {autoRefreshChoices.map((hours) => (
          <option key={hours} value={hours}>
            {refreshWords[hours]}
          </option>
        ))}
      </select>
      <IonNote id="setting-auto-refresh-note">
        Datasets from a URL or an API refresh when the app starts and then at this interval while it
        is open.
        {inBackground === null ? null : backgroundRefreshWords[inBackground]}
      </IonNote>
    </div>
  );
}

/**
 * Alerts when followed bills change: turned on only once the platform allows them (the toggle
 * goes back off, with the reason, when it does not).
 */
function ChangeAlertsSetting(props: {
  readonly checked: boolean;
  readonly alerts: DeviceAlerts;
  readonly save: SavePreferences;
  readonly onFailure: (message: string) => void;
}) {
  const { checked, alerts, save, onFailure } = props;
  return (
    <div className="device-setting">
      <IonToggle
        checked={checked}
        aria-describedby="setting-alerts-note"
        onIonChange={(event) => {
          const on = event.detail.checked;
          if (!on) {
            save({ changeAlerts: false });
            return;
          }
          alerts
            .askToAllow()
            .then((allowed) => {
              if (allowed) save({ changeAlerts: true });
              else {
                onFailure(alerts.refusedMessage);
                event.target.checked = false;
              }
            })
            .catch((error: unknown) => {
              onFailure(messageOf(error));
            });
        }}
      >
        Alert me when followed bills change
      </IonToggle>
      <IonNote id="setting-alerts-note">
        On this device only: a notification when a refresh finds changes to the bills you track, tag
        or take a position on. Nothing leaves the device to send it.
      </IonNote>
    </div>
  );
}

export function DeviceSettingsPanel() {
  const { alerts, usesServiceWorker } = useAppServices().platform;
  const setting = useSetting(DEVICE_PREFERENCES_SETTING);
  const inBackground = useBackgroundRefresh(usesServiceWorker);
  const [failure, setFailure] = useState<string | null>(null);
  // Said once the change is written (sealed, on an account's store): a toggle flips at once,
  // and leaving before the write lands would lose it without this.
  const [saved, setSaved] = useState<string | null>(null);
  if (setting === undefined) return <p role="status">Loading settings…</p>;
  const preferences = devicePreferencesOf(setting?.value);
  const save = (change: Partial<DevicePreferences>) => {
    setFailure(null);
    setSaved(null);
    pageLocalStore()
      .then((store) => saveDevicePreferences(store, change))
      .then(
        () => {
          setSaved('Saved on this device.');
        },
        (error: unknown) => {
          setFailure(messageOf(error));
        },
      );
  };
  return (
    <div className="device-settings">
      <RelaySetting checked={preferences.sourceRelay} save={save} />
      <AutoRefreshSetting
        hours={preferences.autoRefreshHours}
        inBackground={inBackground}
        save={save}
      />
      <ChangeAlertsSetting
        checked={preferences.changeAlerts}
        alerts={alerts}
        save={save}
        onFailure={setFailure}
      />
      <p className="form-notice" role="status">
        {saved}
      </p>
      <FormError message={failure} />
    </div>
  );
}
