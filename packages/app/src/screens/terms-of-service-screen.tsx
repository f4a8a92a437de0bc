import type { TermsAcceptanceResponse } from '@docket/protocol/terms';
import { IonButton, IonSpinner } from '@ionic/react';
import { useEffect, useState } from 'react';
import { ApiRequestError } from '../api/api-client.ts';
import { acceptTerms, fetchTermsAcceptance } from '../api/terms-api.ts';
import { useAppServices } from '../services/app-services.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { TERMS_ACCEPTED } from '../terms/terms-acceptance.ts';
import { TermsOfServiceText } from '../terms/terms-of-service-text.tsx';
import { useCommand } from '../ui/use-command.ts';
import { FormError } from '../ui/form-error.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';

function failureMessage(failure: unknown): string {
  return failure instanceof ApiRequestError
    ? failure.message
    : 'Something went wrong. Try again in a moment.';
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

function AcceptanceState({ acceptance }: { readonly acceptance: TermsAcceptanceResponse }) {
  const { accepted, currentVersion } = acceptance;
  if (accepted === null) return <p>You have not accepted these terms yet.</p>;
  return (
    <p>
      You accepted version {accepted.version} on {formatDate(accepted.acceptedAt)}.
      {accepted.version !== currentVersion &&
        ` The terms have changed since: the current version is ${currentVersion}.`}
    </p>
  );
}

/** /terms-of-service: the terms, whether the signed-in user accepted them, and Accept. */
export function TermsOfServiceScreen() {
  const { api, platform, sync } = useAppServices();
  const [acceptance, setAcceptance] = useState<TermsAcceptanceResponse | null>(null);
  const { busy: accepting, error, setError, run } = useCommand();
  const toast = useStatusToast();

  useEffect(() => {
    let current = true;
    fetchTermsAcceptance(api).then(
      (answer) => {
        if (current) setAcceptance(answer);
      },
      (failure: unknown) => {
        if (current) setError(failureMessage(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [api, setError]);

  const accept = (version: string) =>
    run(failureMessage, async () => {
      setAcceptance(await acceptTerms(api, version));
      // Sync waits for the acceptance: it may start now.
      sync.termsAccepted();
      toast.done(TERMS_ACCEPTED);
    });

  const mayAccept =
    acceptance !== null && acceptance.accepted?.version !== acceptance.currentVersion;

  return (
    <>
      <PageHeader title="Terms of service" backHref="/tabs/more" />
      <PageBody>
        <h1>Terms of service</h1>
        <section className="terms-acceptance" aria-label="Your acceptance">
          {acceptance === null && error === null && (
            <p role="status">
              <IonSpinner aria-hidden="true" name="dots" /> Checking whether you accepted these
              terms…
            </p>
          )}
          {acceptance !== null && <AcceptanceState acceptance={acceptance} />}
          <FormError message={error} />
          {mayAccept && (
            <IonButton
              disabled={accepting}
              onClick={() => {
                void accept(acceptance.currentVersion);
              }}
            >
              Accept
            </IonButton>
          )}
        </section>
        <TermsOfServiceText viewer={platform.kind} />
      </PageBody>
    </>
  );
}
