import { IonButton } from '@ionic/react';
import {
  apiKeyHint,
  apiKeyProblem,
  apiKeySourceNames,
  LEGISCAN_MONTHLY_QUERIES,
  legiscanQueriesWords,
  removeApiKey,
  saveApiKey,
} from '@docket/core/sources';
import type { ApiKeySource } from '@docket/core/store';
import { useId, useState } from 'react';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { useApiKey, useLegiscanQueries } from '../local-store/live-api-keys.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useCommand } from '../ui/use-command.ts';
import './device-settings.css';
import { IonNote } from '../ui/ionic/ion-note.ts';
import { TEAM_API_KEY_WORDS, useDatasetSpace } from '../local-store/dataset-space.ts';

// The More tab's API keys: the user's key for each source whose API takes one (core's
// sources/api-keys.ts). A key is user data: it syncs to the user's other devices, end-to-end
// encrypted, and is shown only as its last four characters once saved; the field is masked. In a
// team workspace's space a key stays on this device: it is the member's, never the team's.

const sources: readonly { source: ApiKeySource; note: string }[] = [
  {
    source: 'legiscan',
    note: 'For datasets from the LegiScan API. LegiScan gives a free key at legiscan.com/legiscan. The key goes to LegiScan with each request, and through the Docket server when the relay is used, which never keeps or logs it.',
  },
  {
    source: 'openstates',
    note: 'For datasets from the Open States API, which gives a free key at open.pluralpolicy.com.',
  },
  {
    source: 'congress',
    note: 'For datasets from the Congress.gov API, which takes a free api.data.gov key (api.congress.gov/sign-up).',
  },
];

/**
 * The LegiScan queries this device sent with the saved key this month, against the public key's
 * monthly quota (core's sources/legiscan-quota.ts): a refresh that would go past it stops.
 */
function LegiscanQueriesNote({ apiKey }: { apiKey: string }) {
  const used = useLegiscanQueries(apiKey);
  if (used === undefined) return null;
  return (
    <p className="field-hint" role="status">
      {legiscanQueriesWords(used)}
      {used >= LEGISCAN_MONTHLY_QUERIES ? '. Refreshes from LegiScan wait for next month.' : ''}
    </p>
  );
}

function ApiKeyField({ source, note }: { source: ApiKeySource; note: string }) {
  const saved = useApiKey(source);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const command = useCommand();
  const toast = useStatusToast();
  const ids = useId();
  const name = apiKeySourceNames[source];
  const label = `${name} API key`;
  if (saved === undefined) return <p role="status">Loading {label}…</p>;
  const save = () => {
    const found = apiKeyProblem(source, typed);
    setProblem(found);
    if (found !== null) return;
    void command.run(`save the ${label}`, async () => {
      await saveApiKey(await billCommandContext(), source, typed);
      setTyped('');
      toast.done(`${label} saved.`);
    });
  };
  const remove = () => {
    void command.run(`remove the ${label}`, async () => {
      await removeApiKey(await billCommandContext(), source);
      toast.done(`${label} removed.`);
    });
  };
  return (
    <form
      className="device-setting api-key-setting"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <TextField
        label={label}
        type="password"
        autocomplete="off"
        spellcheck={false}
        maxlength={200}
        value={typed}
        aria-describedby={`${ids}-state ${ids}-note`}
        onChange={(value) => {
          setTyped(value);
          setProblem(null);
        }}
      />
      <p id={`${ids}-state`} className="field-hint" role="status">
        {saved === null ? `No ${label} saved.` : `Saved: ${apiKeyHint(saved.key)}.`}
      </p>
      {source === 'legiscan' && saved !== null && <LegiscanQueriesNote apiKey={saved.key} />}
      <IonNote id={`${ids}-note`}>{note}</IonNote>
      <div className="api-key-buttons">
        <IonButton type="submit" size="small" disabled={command.busy}>
          {saved === null ? `Save ${label}` : `Replace ${label}`}
        </IonButton>
        {saved !== null && (
          <IonButton
            size="small"
            fill="outline"
            color="danger"
            disabled={command.busy}
            onClick={remove}
          >
            Remove {label}
          </IonButton>
        )}
      </div>
      <FormError message={problem ?? command.error} />
    </form>
  );
}

/** Settings: the user's API keys, one field per source. */
export function ApiKeysPanel() {
  const { team } = useDatasetSpace();
  return (
    <div className="api-keys">
      {team && <p className="field-hint">{TEAM_API_KEY_WORDS}</p>}
      {sources.map(({ source, note }) => (
        <ApiKeyField key={source} source={source} note={note} />
      ))}
    </div>
  );
}
