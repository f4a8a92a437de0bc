import { IonButton } from '@ionic/react';
import { describeLinkCounts } from '@docket/core/backups';
import { useId } from 'react';
import { plural } from '../ui/formatting.ts';
import { formatWhen } from './backup-words.ts';
import { type LinkRow, linkState, type PublishLink } from './use-publish-link.ts';

// The backup-link screen's list of a backup's links, newest first: what each holds, its state,
// how often it was opened, its address while it can be copied, and Copy, Share and Revoke.

type LinkActions = Pick<PublishLink, 'canShare' | 'copy' | 'share' | 'askRevoke'>;

function LinkButtons({ row, actions }: { readonly row: LinkRow; readonly actions: LinkActions }) {
  const { url } = row;
  return (
    <div className="screen-actions">
      {url !== null && (
        <IonButton
          size="small"
          onClick={() => {
            actions.copy(url);
          }}
        >
          Copy link
        </IonButton>
      )}
      {url !== null && actions.canShare && (
        <IonButton
          size="small"
          fill="outline"
          onClick={() => {
            actions.share(url);
          }}
        >
          Share…
        </IonButton>
      )}
      <IonButton
        size="small"
        fill="outline"
        color="danger"
        onClick={() => {
          actions.askRevoke(row.link);
        }}
      >
        Revoke
      </IonButton>
    </div>
  );
}

function LinkUrlField({ url }: { readonly url: string }) {
  const id = useId();
  return (
    <div className="backup-field">
      <label htmlFor={`${id}-link`}>Link</label>
      <input
        id={`${id}-link`}
        className="backup-link-url"
        readOnly
        // Private words: kept out of the browser's form restore, which writes typed text into the
        // profile's session files (issue 38).
        autoComplete="off"
        value={url}
        onFocus={(event) => {
          event.currentTarget.select();
        }}
      />
    </div>
  );
}

function LinkCard({ row, actions }: { readonly row: LinkRow; readonly actions: LinkActions }) {
  const { link, kept, key, live, url } = row;
  return (
    <li className="record-card">
      <h3>Link made {formatWhen(link.createdAt)}</h3>
      {kept?.holds != null && (
        <p>
          {live ? 'Holds' : 'Held'} {describeLinkCounts(kept.holds.counts, kept.holds.choices)}
        </p>
      )}
      <p>{linkState(link)}</p>
      <p>Opened {plural(link.viewCount, 'time')}</p>
      {live && url !== null && <LinkUrlField url={url} />}
      {live && kept !== undefined && key === null && (
        <p>
          Its key was not kept on this device, so it cannot be copied again here. Revoke it when it
          is no longer needed.
        </p>
      )}
      {live && kept === undefined && (
        <p>
          This link was made on another device; copy it there, where it also says what the link
          holds.
        </p>
      )}
      {live && <LinkButtons row={row} actions={actions} />}
    </li>
  );
}

/** The backup's links, newest first; "Loading links…" until they come. */
export function BackupLinkList({ publish }: { readonly publish: PublishLink }) {
  const { links } = publish;
  if (links === null) return <p role="status">Loading links…</p>;
  if (links.length === 0) return <p>No links of this backup yet.</p>;
  return (
    <ul className="record-list" aria-label="Links">
      {links.map((row) => (
        <LinkCard key={row.link.id} row={row} actions={publish} />
      ))}
    </ul>
  );
}
