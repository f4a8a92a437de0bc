import { jurisdictionName, sessionLabel, sessionOfKey, statusWord } from '@docket/core/bills';
import type { BillListQuery } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { IonButton, IonButtons, IonContent, IonHeader, IonTitle, IonToolbar } from '@ionic/react';
import { useId } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useBackupKeys } from '../backups/backup-keys.ts';
import '../backups/backups.css';
import { formatBillDate } from '../bills/bill-words.ts';
import { loginPathReturningTo } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { plural } from '../ui/formatting.ts';
import { IonModal } from '../ui/ionic/ion-modal.ts';
import type { SharedListLink } from './share-list-action.ts';
import { decisionListWords } from './tracked-filters.tsx';
import type { ShareListProps } from './share-list.tsx';
import { type ShareListLink, useShareListLink } from './use-share-list-link.ts';

// The sheet "Share" opens on the Tracked tab: it says which bills go out and what comes with
// them, makes the link ("Create link"), then hands it to the platform's share sheet ("Share
// link") or the clipboard ("Copy link"). Two taps here, because a browser opens its share sheet
// (and some write the clipboard) only straight from a tap, and sealing and uploading take longer
// than a tap's grace. What the sharer needs first (being signed in, the cloud password on this
// device, a connection) is said here instead of a link that fails.

const NAME_MAX = 200;
const positionWords = { support: 'Support', oppose: 'Oppose', watch: 'Watch', none: 'No position' };

/**
 * The list's name, the backup's and the link page's heading: which list, then its filters in
 * words ("Tracked · Housing · In committee"). The dataset filter is left out: a link never
 * names the sharer's sources.
 */
export function shareListName(
  query: BillListQuery,
  words: { readonly tags: readonly Tag[]; readonly sponsorName: string | null | undefined },
): string {
  const parts = [
    query.decision !== null
      ? decisionListWords[query.decision]
      : query.all
        ? 'All bills'
        : decisionListWords.track,
  ];
  const tag = words.tags.find((candidate) => candidate.id === query.tagId);
  if (tag !== undefined) parts.push(tag.name);
  if (query.status !== null) parts.push(statusWord(query.status));
  if (query.position !== null) parts.push(positionWords[query.position]);
  if (query.session !== null) {
    const { jurisdiction, session } = sessionOfKey(query.session);
    parts.push(`${jurisdictionName(jurisdiction)} ${sessionLabel(jurisdiction, session)}`);
  } else if (query.jurisdiction !== null) {
    parts.push(jurisdictionName(query.jurisdiction));
  }
  if (query.week !== null) parts.push(`Week of ${formatBillDate(query.week)}`);
  if (query.sponsor !== null && words.sponsorName != null) {
    parts.push(`Sponsored by ${words.sponsorName}`);
  }
  if (query.q.trim() !== '') parts.push(`“${query.q.trim()}”`);
  const name = parts.join(' · ');
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`;
}

export function ShareListSheet(
  props: ShareListProps & { readonly isOpen: boolean; readonly onClose: () => void },
) {
  const title = 'Share this list';
  return (
    <IonModal
      isOpen={props.isOpen}
      onDidDismiss={props.onClose}
      htmlAttributes={{ 'aria-label': title }}
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle>
            <h2 className="share-list-title">{title}</h2>
          </IonTitle>
          <IonButtons slot="end">
            <IonButton onClick={props.onClose}>Close</IonButton>
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      <IonContent className="ion-padding">
        {/* Mounted only while open: each opening starts from what the list shows now. */}
        {props.isOpen && <ShareListBody {...props} />}
      </IonContent>
    </IonModal>
  );
}

/** What the sheet shows: what is needed first, else the link to make or the link made. */
function ShareListBody({
  query,
  total,
  allIds,
  tags,
  sponsorName,
  onClose,
}: ShareListProps & {
  readonly onClose: () => void;
}) {
  const keys = useBackupKeys();
  const online = useAppState((state) => state.online);
  const name = shareListName(query, { tags, sponsorName });
  const link = useShareListLink(name, allIds);

  if (keys.status === 'signed-out') return <SignInFirst />;
  if (keys.status === 'no-password') return <PasswordFirst onClose={onClose} />;
  if (keys.status === 'loading') return <p role="status">Loading…</p>;
  if (!online && link.phase.step !== 'made') {
    return (
      <p role="status">
        You are offline. Sharing a link needs the Docket server: share again once you are online.
      </p>
    );
  }
  if (link.phase.step === 'made') {
    return <MadeLink link={link} made={link.phase.link} name={name} onClose={onClose} />;
  }
  return (
    <ConfirmShare
      link={link}
      total={total}
      name={name}
      onCreate={() => {
        link.create(keys).catch((failure: unknown) => {
          console.error('Could not share the list', failure);
        });
      }}
    />
  );
}

/** Signed out: lists are shared as public links the server keeps, so first "Sign in". */
function SignInFirst() {
  const location = useLocation();
  return (
    <div role="status">
      <p>Sign in to share a link. Lists are shared as public links your Docket server keeps.</p>
      <IonButton routerLink={loginPathReturningTo(`${location.pathname}${location.search}`)}>
        Sign in
      </IonButton>
    </div>
  );
}

/** No cloud password on this device: a shared list is a backup sealed with its key. */
function PasswordFirst({ onClose }: { readonly onClose: () => void }) {
  return (
    <div role="status">
      <p>
        Set or enter your cloud password to share a link: a shared list is kept as a backup,
        encrypted with your cloud password’s key, and this device does not have it yet. Set it under
        More, then share again.
      </p>
      <IonButton routerLink="/tabs/more" fill="outline" onClick={onClose}>
        Go to Cloud password
      </IonButton>
    </div>
  );
}

/** What goes out, "Notes" to send them too, and "Create link". */
function ConfirmShare({
  link,
  total,
  name,
  onCreate,
}: {
  readonly link: ShareListLink;
  /** How many bills the list shows. */
  readonly total: number;
  readonly name: string;
  readonly onCreate: () => void;
}) {
  const ids = useId();
  const { phase, notes, setNotes } = link;
  const making = phase.step === 'making';
  return (
    <>
      <h3 className="share-list-what" dir="auto">
        Share {plural(total, 'bill')} as a public link
      </h3>
      <p dir="auto">
        “{name}”: the bills this list shows, in its order, with their tags, your positions and your
        reasons for them, and whether each is Tracked, Later or Dismissed. Anyone with the link can
        read them, without signing in; nothing else of yours goes with them.
      </p>
      <div className="backup-choice">
        <input
          id={`${ids}-notes`}
          type="checkbox"
          checked={notes}
          disabled={making}
          aria-describedby={`${ids}-notes-hint`}
          onChange={(event) => {
            setNotes(event.currentTarget.checked);
          }}
        />
        <label htmlFor={`${ids}-notes`}>Notes</label>
        <p id={`${ids}-notes-hint`} className="backup-hint">
          Your highlights and notes on these bills’ text.
        </p>
      </div>
      <p className="backup-hint">
        The list is kept as a backup under Backups, where you can revoke the link.
      </p>
      <div className="screen-actions">
        <IonButton disabled={making} onClick={onCreate}>
          Create link
        </IonButton>
      </div>
      <p role="status" aria-live="polite">
        {making ? 'Encrypting and uploading…' : ''}
      </p>
      {phase.step === 'failed' && (
        <p className="backup-error" role="alert">
          {phase.message}
        </p>
      )}
    </>
  );
}

/** The link made: to share or copy now (its key is not kept), and where to revoke it. */
function MadeLink({
  link,
  made,
  name,
  onClose,
}: {
  readonly link: ShareListLink;
  readonly made: SharedListLink;
  readonly name: string;
  readonly onClose: () => void;
}) {
  const ids = useId();
  const { canShare, next } = link;
  const { url, backupId } = made;
  return (
    <>
      <p role="status">
        Link created. {canShare ? 'Share it' : 'Copy it'} now and send it to whoever should see
        these bills.
      </p>
      <div className="backup-field">
        <label htmlFor={`${ids}-url`}>Link</label>
        <input
          id={`${ids}-url`}
          className="backup-link-url"
          readOnly
          // Private words: kept out of the browser's form restore (issue 38).
          autoComplete="off"
          value={url}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
      </div>
      <div className="screen-actions">
        {canShare && (
          <IonButton
            ref={next}
            onClick={() => {
              link.share(url);
            }}
          >
            Share link
          </IonButton>
        )}
        <IonButton
          ref={canShare ? undefined : next}
          fill={canShare ? 'outline' : 'solid'}
          onClick={() => {
            link.copy(url);
          }}
        >
          Copy link
        </IonButton>
      </div>
      <p aria-live="polite">{link.status}</p>
      <p className="backup-hint">
        Its key is not kept on this device: once this closes, the link cannot be copied again here.
        It is kept with the backup “{name}”, where you can{' '}
        <Link to={`/backup-link/${encodeURIComponent(backupId)}`} onClick={onClose}>
          revoke it
        </Link>
        .
      </p>
    </>
  );
}
