import { IonButton } from '@ionic/react';
import {
  backupErrorMessage,
  type BackupContents,
  describeLink,
  fragmentKeyOf,
  PublicLinkKeyError,
  type SharedLink,
} from '@docket/core/backups';
import { publicLinkErrors } from '@docket/protocol/public-links';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ApiRequestError } from '../api/api-client.ts';
import { useAppServices } from '../services/app-services.ts';
import { openLink, restoreContents } from '../backups/backup-actions.ts';
import { BackupContentsView } from '../backups/backup-contents-view.tsx';
import '../backups/backups.css';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { holdLinkKey } from '../public-links/held-link-key.ts';
import { fetchPublicLink } from '../public-links/public-links-api.ts';
import { publicLinkPath, useLinkFragment } from '../public-links/use-link-fragment.ts';
import { LOGIN_PATH, RETURN_TO_LINK_PARAM } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { formatDateTime } from '../ui/formatting.ts';

type LinkState =
  | { readonly status: 'loading' }
  | { readonly status: 'problem'; readonly title: string; readonly message: string }
  | OpenedLink;

/** A link opened: what it holds, when it was shared and until when. */
interface OpenedLink {
  readonly status: 'open';
  readonly shared: SharedLink;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/** The outcome of "Import into my data": the message, said as a status or an alert. */
interface ImportOutcome {
  readonly ok: boolean;
  readonly message: string;
}

function problemOf(error: unknown): Extract<LinkState, { status: 'problem' }> {
  if (error instanceof PublicLinkKeyError) {
    return {
      status: 'problem',
      title:
        error.problem === 'missing-key' ? 'This link has no key' : 'This link’s key is damaged',
      message: error.message,
    };
  }
  if (error instanceof ApiRequestError) {
    if (error.code === publicLinkErrors.revoked) {
      return {
        status: 'problem',
        title: 'This link was revoked',
        message: 'The person who shared it has revoked it. Ask them for a new link.',
      };
    }
    if (error.code === publicLinkErrors.expired) {
      return {
        status: 'problem',
        title: 'This link has expired',
        message: 'It was shared for a limited time, which is over. Ask for a new link.',
      };
    }
    if (error.status === 404 || error.status === 400) {
      return {
        status: 'problem',
        title: 'There is no such link',
        message: 'Check that the whole link was copied, or ask for it again.',
      };
    }
    return { status: 'problem', title: 'The link could not be opened', message: error.message };
  }
  return {
    status: 'problem',
    title: 'This link does not open',
    message: backupErrorMessage(error),
  };
}

/**
 * The link `id` opened with the key in `hash`, asked of the server and opened on this device
 * again whenever the id or the key changes; 'loading' until then.
 */
function useOpenedLink(id: string | undefined, hash: string): LinkState {
  const { api } = useAppServices();
  const [state, setState] = useState<{ request: string; value: LinkState } | null>(null);
  const fragmentKey = fragmentKeyOf(hash);
  const request = `${id ?? ''}#${fragmentKey ?? ''}`;

  useEffect(() => {
    if (id === undefined) return;
    const effect = { live: true };
    (async () => {
      // Without a key there is nothing to open: the server is not asked (nor a view counted).
      if (fragmentKey === null) throw new PublicLinkKeyError('missing-key');
      const link = await fetchPublicLink(api, id);
      const shared = await openLink(link.ciphertext, fragmentKey, id);
      return { shared, createdAt: link.createdAt, expiresAt: link.expiresAt };
    })().then(
      (opened) => {
        if (effect.live) setState({ request, value: { status: 'open', ...opened } });
      },
      (error: unknown) => {
        if (effect.live) setState({ request, value: problemOf(error) });
      },
    );
    return () => {
      effect.live = false;
    };
    // `request` is made of id and key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, request]);
  return state?.request === request ? state.value : { status: 'loading' };
}

/** "Import into my data": what a link holds merged into the reader's data, as a restore job. */
function useLinkImport(id: string | undefined) {
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<ImportOutcome | null>(null);

  const importSet = (contents: BackupContents) => {
    setImporting(true);
    setImported(null);
    restoreContents({ contents, mode: 'merge', subjectId: id ?? 'link', label: 'Shared link' })
      .then(
        (result) => {
          setImported({
            ok: true,
            message: `Imported into your data. Your data from before is kept as the full backup “${result.safetyCopy.name}”.`,
          });
        },
        (error: unknown) => {
          setImported({
            ok: false,
            message: error instanceof Error ? error.message : 'The import failed; nothing changed.',
          });
        },
      )
      .finally(() => {
        setImporting(false);
      });
  };

  return { importing, imported, importSet };
}

/** /public-link/:id#k=…: a shared set of bills, read-only; signed-in viewers can import it. */
export function PublicLinkScreen() {
  const { id } = useParams();
  const hash = useLinkFragment(id);
  const signedIn = useAppState((state) => state.user !== null);
  const link = useOpenedLink(id, hash);
  const { importing, imported, importSet } = useLinkImport(id);

  // The way back from sign-in names the link only; its key waits in this tab
  // (public-links/use-link-fragment.ts).
  const back = publicLinkPath(id ?? '');
  const isList = link.status === 'open' && link.shared.kind === 'list';
  return (
    <>
      <PageHeader title="Shared bills" />
      <PageBody>
        {link.status === 'loading' ? (
          <>
            <h1>Shared bills</h1>
            <p role="status">Opening the link…</p>
          </>
        ) : link.status === 'problem' ? (
          <>
            <h1>{link.title}</h1>
            <p role="alert">{link.message}</p>
          </>
        ) : (
          <>
            <SharedLinkHeading link={link} isList={isList} />
            <div className="screen-actions">
              {signedIn ? (
                <IonButton
                  disabled={importing}
                  onClick={() => {
                    importSet(link.shared.contents);
                  }}
                >
                  Import into my data
                </IonButton>
              ) : (
                <IonButton
                  fill="outline"
                  routerLink={`${LOGIN_PATH}?${RETURN_TO_LINK_PARAM}=${encodeURIComponent(back)}`}
                  onClick={() => {
                    if (id !== undefined) holdLinkKey(id, hash);
                  }}
                >
                  Sign in to import
                </IonButton>
              )}
            </div>
            <LinkImportOutcome importing={importing} imported={imported} />
            {/* For a reader: what the link holds in words, then the bills; the owner's
                counters of each kind (datasets, triage decisions…) are not theirs. */}
            <BackupContentsView
              contents={link.shared.contents}
              summary={`This ${isList ? 'list' : 'link'} holds ${describeLink(link.shared)}.`}
              counts={false}
              ordered={isList}
            />
          </>
        )}
      </PageBody>
    </>
  );
}

/** What the link is (its name, team workspace, description and date), and when it was shared. */
function SharedLinkHeading({
  link,
  isList,
}: {
  readonly link: OpenedLink;
  readonly isList: boolean;
}) {
  return (
    <>
      {/* The backup's own name, description and date head the page; links made before
          names were sealed into them have none. A list shared from the Tracked tab is
          headed by the list's name and says only when it was shared (the next line): its
          backup was taken then. Dates are in the reader's locale. */}
      <div className="shared-link-title">
        <h1 dir="auto">{link.shared.name ?? 'Shared bills'}</h1>
        {link.shared.workspace !== null && (
          <p className="shared-link-from" dir="auto">
            From {link.shared.workspace}
          </p>
        )}
        {link.shared.description !== '' && (
          <p className="backup-text" dir="auto">
            {link.shared.description}
          </p>
        )}
        {!isList && (
          <p>
            Backed up{' '}
            <time dateTime={link.shared.backedUpAt}>{formatDateTime(link.shared.backedUpAt)}</time>
          </p>
        )}
      </div>
      <p>
        Shared {formatDateTime(link.createdAt)}
        {link.expiresAt === null ? '' : `; the link expires ${formatDateTime(link.expiresAt)}`}.
        Read-only: nothing here changes anyone’s data.
      </p>
    </>
  );
}

/** "Importing…" and a done import as a status; a failed one as an alert. */
function LinkImportOutcome({
  importing,
  imported,
}: {
  readonly importing: boolean;
  readonly imported: ImportOutcome | null;
}) {
  return (
    <>
      <p role="status" aria-live="polite">
        {importing ? 'Importing…' : imported?.ok === true ? imported.message : ''}
      </p>
      {imported?.ok === false && (
        <p className="backup-error" role="alert">
          {imported.message}
        </p>
      )}
    </>
  );
}
