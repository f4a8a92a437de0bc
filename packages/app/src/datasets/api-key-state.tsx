import { Link } from 'react-router-dom';
import { useApiKey } from '../local-store/live-api-keys.ts';

const apiKeyNames = {
  legiscan: 'LegiScan',
  openstates: 'Open States',
  congress: 'Congress.gov',
} as const;

/** Whether the user's key for an API is saved, and where to add it when it is not. */
export function ApiKeyState({ source }: { source: keyof typeof apiKeyNames }) {
  const saved = useApiKey(source);
  const name = apiKeyNames[source];
  if (saved === undefined) return null;
  return (
    <p className="field-hint" role="status">
      {saved === null ? (
        <>
          No {name} API key is saved yet: add it under Settings on the{' '}
          <Link to="/tabs/more">More</Link> tab before importing.
        </>
      ) : (
        `Uses your ${name} API key from Settings on the More tab.`
      )}
    </p>
  );
}
