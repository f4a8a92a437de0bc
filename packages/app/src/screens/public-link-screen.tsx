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
import { useLocation, useParams } from 'react-router-dom';
import { ApiRequestError } from '../api/api-client.ts';
import { useAppServices } from '../services/app-services.ts';
import { openLink, restoreContents } from '../backups/backup-actions.ts';
import { BackupContentsView } from '../backups/backup-contents-view.tsx';
import '../backups/backups.css';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { forgetHeldLinkKey, heldLinkKey, holdLinkKey } from '../public-links/held-link-key.ts';
import { fetchPublicLink } from '../public-links/public-links-api.ts';
import { LOGIN_PATH, RETURN_TO_LINK_PARAM } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { formatDateTime } from '../ui/formatting.ts';

type LinkState =
  | { readonly status: 'loading' }
  | { readonly status: 'problem'; readonly title: string; readonly message: string }
  | {
      readonly status: 'open';
      readonly shared: SharedLink;
      readonly createdAt: string;
      readonly expiresAt: string | null;
    };

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

function linkPath(id: string): string {
  return `/public-link/${encodeURIComponent(id)}`;
}

/** /public-link/:id#k=…: a shared set of bills, read-only; signed-in viewers can import it. */
export function PublicLinkScreen() {
  const { id } = useParams();
  const location = useLocation();
  // Back from the sign-in detour, the key waits in this tab's session storage (never in an
  // address that is sent): it is put back into this page's own fragment, then forgotten.
  const fromAddress = fragmentKeyOf(location.hash) === null ? null : location.hash;
  // Only while this page is the one shown: Ionic keeps it rendered under the sign-in page, where
  // the address is the sign-in page's, which must never get the key.
  const waiting =
    fromAddress === null && id !== undefined && location.pathname === linkPath(id)
      ? heldLinkKey(id)
      : null;
  const [restored, setRestored] = useState<{ id: string; hash: string } | null>(null);
  const hash =
    fromAddress ?? waiting ?? (restored !== null && restored.id === id ? restored.hash : '');
  if (waiting !== null && id !== undefined && restored?.hash !== waiting) {
    setRestored({ id, hash: waiting });
  }
  useEffect(() => {
    if (waiting === null || id === undefined) return;
    window.history.replaceState(
      window.history.state,
      '',
      `${location.pathname}${location.search}${waiting}`,
    );
    forgetHeldLinkKey(id);
  }, [waiting, id, location.pathname, location.search]);
  const { api } = useAppServices();
  const signedIn = useAppState((state) => state.user !== null);
  const [state, setState] = useState<{ request: string; value: LinkState } | null>(null);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<{ ok: boolean; message: string } | null>(null);
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
  const link: LinkState = state?.request === request ? state.value : { status: 'loading' };

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

  // The way back from sign-in names the link only; its key waits in this tab (above).
  const back = linkPath(id ?? '');
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
                  <time dateTime={link.shared.backedUpAt}>
                    {formatDateTime(link.shared.backedUpAt)}
                  </time>
                </p>
              )}
            </div>
            <p>
              Shared {formatDateTime(link.createdAt)}
              {link.expiresAt === null
                ? ''
                : `; the link expires ${formatDateTime(link.expiresAt)}`}
              . Read-only: nothing here changes anyone’s data.
            </p>
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
            <p role="status" aria-live="polite">
              {importing ? 'Importing…' : imported?.ok === true ? imported.message : ''}
            </p>
            {imported?.ok === false && (
              <p className="backup-error" role="alert">
                {imported.message}
              </p>
            )}
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
