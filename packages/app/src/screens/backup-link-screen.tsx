import { IonButton } from '@ionic/react';
import {
  countLink,
  defaultLinkChoices,
  describeLink,
  describeLinkCounts,
  type LinkChoices,
  makeLinkPayload,
  publicLinkUrl,
  sealLinkContents,
  selectLinkContents,
} from '@docket/core/backups';
import type { LinkSummary } from '@docket/protocol/public-links';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { useBackupKeys } from '../backups/backup-keys.ts';
import { describeCounts, formatWhen } from '../backups/backup-words.ts';
import '../backups/backups.css';
import { OpeningBackupStatus } from '../backups/opening-backup-status.tsx';
import { useOpenedBackup } from '../backups/use-opened-backup.ts';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';
import { createLink, listLinks, revokeLink } from '../public-links/public-links-api.ts';
import {
  forgetLinkKey,
  type KeptLink,
  loadLinkKeys,
  saveLinkKey,
} from '../public-links/link-keys-store.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { plural } from '../ui/formatting.ts';
import { useCommand } from '../ui/use-command.ts';
import { useAlert } from '../ui/lazy-overlays.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const expiryChoices = [
  { value: 'never', label: 'Never', ms: null },
  { value: '1', label: 'In 1 day', ms: DAY_MS },
  { value: '7', label: 'In 7 days', ms: 7 * DAY_MS },
  { value: '30', label: 'In 30 days', ms: 30 * DAY_MS },
  { value: '365', label: 'In a year', ms: 365 * DAY_MS },
] as const;

/** What the sharer may let into a link, each with what it means. */
const linkChoiceFields: readonly {
  readonly key: keyof LinkChoices;
  readonly label: string;
  readonly hint: string;
}[] = [
  {
    key: 'dismissedBills',
    label: 'Dismissed bills',
    hint: 'Bills you dismissed, with their tags, positions and notes.',
  },
  {
    key: 'decisions',
    label: 'Decisions',
    hint: 'Whether each bill is Tracked, Later or Dismissed.',
  },
  { key: 'notes', label: 'Notes', hint: 'Your highlights and notes on the bills’ text.' },
];

function linkState(link: LinkSummary): string {
  if (link.revokedAt !== null) return `Revoked ${formatWhen(link.revokedAt)}`;
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= Date.now()) {
    return `Expired ${formatWhen(link.expiresAt)}`;
  }
  return link.expiresAt === null
    ? 'Open, never expires'
    : `Open until ${formatWhen(link.expiresAt)}`;
}

/** /backup-link/:id: publish a backup as read-only links; copy, share and revoke them. */
export function BackupLinkScreen() {
  const { id } = useParams();
  const { api, platform } = useAppServices();
  const keys = useBackupKeys();
  const opened = useOpenedBackup(id, keys);
  const ids = useId();
  const [links, setLinks] = useState<LinkSummary[] | null>(null);
  const [linkKeys, setLinkKeys] = useState<Map<string, KeptLink>>(new Map());
  const [expiry, setExpiry] = useState<(typeof expiryChoices)[number]['value']>('never');
  const [choices, setChoices] = useState<LinkChoices>(defaultLinkChoices);
  const [keepLink, setKeepLink] = useState(false);
  // The keys of links made on this screen, in memory only: a link whose key is not kept can be
  // copied until the screen is left.
  const [madeHere, setMadeHere] = useState<ReadonlyMap<string, string>>(new Map());
  const { busy, error, setError, run } = useCommand();
  const [status, setStatus] = useState('');
  const toast = useStatusToast();
  const [presentAlert] = useAlert();
  const origin = window.location.origin;

  const reload = useCallback(() => {
    if (id === undefined) return;
    listLinks(api, id)
      .then(async (found) => {
        setLinks(found);
        setLinkKeys(await loadLinkKeys(found.map((link) => link.id)));
      })
      .catch((failure: unknown) => {
        setError(failure instanceof Error ? failure.message : 'The links could not be loaded.');
      });
  }, [api, id, setError]);
  useEffect(reload, [reload]);

  const backupContents = opened.status === 'open' ? opened.backup.contents : null;
  const holds = useMemo(
    () =>
      backupContents === null
        ? ''
        : describeLink({ choices, contents: selectLinkContents(backupContents, choices) }),
    [backupContents, choices],
  );

  const create = async () => {
    if (opened.status !== 'open') return;
    const { backup } = opened;
    const linkNotCreated = (failure: unknown) =>
      failure instanceof Error ? failure.message : 'The link was not created.';
    await run(linkNotCreated, async () => {
      const linkId = crypto.randomUUID();
      // Only what the sharer chose is sealed: the rest never leaves this device.
      const payload = makeLinkPayload(backup.contents, backup.metadata, choices);
      const sealed = await sealLinkContents(browserCrypto, payload, linkId);
      const choice = expiryChoices.find((item) => item.value === expiry);
      const ms = choice?.ms ?? null;
      await createLink(api, {
        id: linkId,
        backupId: backup.summary.id,
        ciphertext: sealed.ciphertext,
        expiresAt: ms === null ? null : new Date(Date.now() + ms).toISOString(),
      });
      // What it holds is kept here beside the key: the server can only keep it sealed.
      await saveLinkKey(linkId, keepLink ? sealed.fragmentKey : null, {
        choices: payload.choices,
        counts: countLink(payload.contents),
      });
      setMadeHere((made) => new Map(made).set(linkId, sealed.fragmentKey));
      setStatus(
        keepLink
          ? 'Link created. Copy it and send it to whoever should see these bills.'
          : 'Link created. Copy it now and send it to whoever should see these bills: its key is not kept on this device, so it cannot be copied again once you leave this screen.',
      );
      reload();
    });
  };

  const copy = (url: string) => {
    navigator.clipboard.writeText(url).then(
      () => {
        setStatus('');
        toast.done('Link copied.');
      },
      () => {
        setStatus('Copying is not allowed here; select the link and copy it yourself.');
      },
    );
  };

  // On phones and in the native shells the system share sheet is the natural way on; where
  // there is none (most desktop browsers) copying is all there is.
  const canShare = platform.canShareLinks();
  const share = (url: string) => {
    platform.shareLink(url, 'Shared bills').catch((failure: unknown) => {
      console.error('Could not share a link', failure);
      setStatus('Sharing did not work here; copy the link instead.');
    });
  };

  const askRevoke = (link: LinkSummary) => {
    presentAlert({
      header: 'Revoke link?',
      message:
        'Nobody will be able to open this link any more, including people who already have it.',
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        {
          text: 'Revoke',
          role: 'destructive',
          handler: () => {
            revokeLink(api, link.id)
              .then(async () => {
                await forgetLinkKey(link.id);
                setStatus('');
                toast.done('Link revoked.');
                reload();
              })
              .catch((failure: unknown) => {
                setError(failure instanceof Error ? failure.message : 'The link was not revoked.');
              });
          },
        },
      ],
    }).catch((failure: unknown) => {
      console.error('Could not ask before revoking a link', failure);
    });
  };

  return (
    <>
      <PageHeader title="Backup link" backHref="/tabs/backups" />
      <PageBody>
        <h1>Backup link</h1>
        <BackupKeyNotice keys={keys} />
        {keys.status === 'ready' &&
          (opened.status !== 'open' ? (
            <OpeningBackupStatus opened={opened} />
          ) : (
            <>
              <p>
                Share <strong dir="auto">{opened.backup.metadata.name}</strong> (
                {describeCounts(opened.backup.metadata.counts)}) read-only with anyone who has the
                link, without them signing in. The link carries its own key after “#”, which never
                reaches the server: the server keeps only encrypted bytes. Your dataset sources are
                not shared.
              </p>
              <div className="backup-field">
                <label htmlFor={`${ids}-expiry`}>Expires</label>
                <select
                  id={`${ids}-expiry`}
                  value={expiry}
                  onChange={(event) => {
                    const value = expiryChoices.find(
                      (item) => item.value === event.currentTarget.value,
                    )?.value;
                    if (value !== undefined) setExpiry(value);
                  }}
                >
                  {expiryChoices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </div>
              <fieldset className="backup-choices">
                <legend>What the link shares</legend>
                <p className="backup-hint">
                  Always the bills you kept: tracked, set aside for later, tagged or given a
                  position, with their tags, and their positions with your reasons. Also:
                </p>
                {linkChoiceFields.map((field) => (
                  <div key={field.key} className="backup-choice">
                    <input
                      id={`${ids}-${field.key}`}
                      type="checkbox"
                      checked={choices[field.key]}
                      aria-describedby={`${ids}-${field.key}-hint`}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        setChoices((current) => ({ ...current, [field.key]: checked }));
                      }}
                    />
                    <label htmlFor={`${ids}-${field.key}`}>{field.label}</label>
                    <p id={`${ids}-${field.key}-hint`} className="backup-hint">
                      {field.hint}
                    </p>
                  </div>
                ))}
              </fieldset>
              <p aria-live="polite">The link will hold {holds}.</p>
              <div className="backup-choice">
                <input
                  id={`${ids}-keep`}
                  type="checkbox"
                  checked={keepLink}
                  aria-describedby={`${ids}-keep-hint`}
                  onChange={(event) => {
                    setKeepLink(event.currentTarget.checked);
                  }}
                />
                <label htmlFor={`${ids}-keep`}>Keep this link on this device</label>
                <p id={`${ids}-keep-hint`} className="backup-hint">
                  Its key is kept locked with your work here, so you can copy the link again later.
                  Otherwise copy it now: once you leave this screen it cannot be copied again here.
                </p>
              </div>
              <div className="screen-actions">
                <IonButton
                  disabled={busy}
                  onClick={() => {
                    create().catch((failure: unknown) => {
                      console.error('Could not create a link', failure);
                    });
                  }}
                >
                  Create link
                </IonButton>
              </div>
              <p role="status" aria-live="polite">
                {busy ? 'Encrypting and uploading…' : status}
              </p>
              {error !== null && (
                <p className="backup-error" role="alert">
                  {error}
                </p>
              )}
              <h2>Links</h2>
              {links === null ? (
                <p role="status">Loading links…</p>
              ) : links.length === 0 ? (
                <p>No links of this backup yet.</p>
              ) : (
                <ul className="record-list" aria-label="Links">
                  {[...links].reverse().map((link) => {
                    const kept = linkKeys.get(link.id);
                    const key = madeHere.get(link.id) ?? kept?.key ?? null;
                    const live = link.revokedAt === null;
                    const url = key === null ? null : publicLinkUrl(origin, link.id, key);
                    return (
                      <li key={link.id} className="record-card">
                        <h3>Link made {formatWhen(link.createdAt)}</h3>
                        {kept?.holds != null && (
                          <p>
                            {live ? 'Holds' : 'Held'}{' '}
                            {describeLinkCounts(kept.holds.counts, kept.holds.choices)}
                          </p>
                        )}
                        <p>{linkState(link)}</p>
                        <p>Opened {plural(link.viewCount, 'time')}</p>
                        {live && url !== null && (
                          <div className="backup-field">
                            <label htmlFor={`${ids}-${link.id}`}>Link</label>
                            <input
                              id={`${ids}-${link.id}`}
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
                        )}
                        {live && kept !== undefined && key === null && (
                          <p>
                            Its key was not kept on this device, so it cannot be copied again here.
                            Revoke it when it is no longer needed.
                          </p>
                        )}
                        {live && kept === undefined && (
                          <p>
                            This link was made on another device; copy it there, where it also says
                            what the link holds.
                          </p>
                        )}
                        {live && (
                          <div className="screen-actions">
                            {url !== null && (
                              <IonButton
                                size="small"
                                onClick={() => {
                                  copy(url);
                                }}
                              >
                                Copy link
                              </IonButton>
                            )}
                            {url !== null && canShare && (
                              <IonButton
                                size="small"
                                fill="outline"
                                onClick={() => {
                                  share(url);
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
                                askRevoke(link);
                              }}
                            >
                              Revoke
                            </IonButton>
                          </div>
                        )}
                      </li>
                    );
                  })}
                </ul>
              )}
            </>
          ))}
      </PageBody>
    </>
  );
}
