import { t } from '../../i18n.ts';
import { ErrorMessage, Link, ScreenHeading, Status } from '../../ui/index.ts';
import { ActionButtons, ActionDialogs, AssignAndDue } from './onboarding-actions.tsx';
import { ClientLink } from './client-link.tsx';
import { refreshTemplate } from './api.ts';
import { OnboardingFacts } from './onboarding-fields.tsx';
import { OnboardingPayments } from './onboarding-payments.tsx';
import { OnboardingReview } from './onboarding-review.tsx';
import { OnboardingTimeline } from './onboarding-timeline.tsx';
import { SignatureEvidence } from './signature-evidence.tsx';
import { useOnboarding } from './use-onboarding.ts';
import { snapshotSteps } from './review/steps.ts';
import { useMemo, useState } from 'preact/hooks';

/** One onboarding: its state and actions, the client's link, its payments, the answers under review, its timeline. */
export function OnboardingScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  const record = useOnboarding(id);
  const { onboarding, allowed, members, status, error, version, change } = record;
  // Answers waiting for the team: the primary action is then Review (decision 0089).
  const [waiting, setWaiting] = useState(0);
  // The page's record is read with GET /onboardings/{id}, which carries the template snapshot.
  const snapshot = (onboarding as { template_snapshot?: unknown } | null | undefined)?.template_snapshot;
  const steps = useMemo(() => snapshotSteps(snapshot), [snapshot]);
  if (onboarding === undefined) return <p class="loading">{t('app.loading')}</p>;
  const name = onboarding?.client.name ?? onboarding?.client.email ?? '';
  return (
    <>
      <p>
        <Link href="/workspace/onboardings" navigate={navigate}>
          {t('onboardings.back')}
        </Link>
      </p>
      <ScreenHeading>
        {onboarding ? `${name}: ${onboarding.template.name}` : t('title.onboarding')}
      </ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      {onboarding === null || allowed === null ? (
        <p>{t('onboardings.notFound')}</p>
      ) : (
        <>
          <OnboardingFacts onboarding={onboarding}>
            <dt>{t('onboardings.client')}</dt>
            <dd>
              <Link href={`/workspace/clients/${onboarding.client.id}`} navigate={navigate}>
                {name}
              </Link>
              {onboarding.client.email ? ` (${onboarding.client.email})` : ''}
            </dd>
            <dt>{t('onboardings.link')}</dt>
            <dd>{t(`onboardings.link.${onboarding.link}`, { count: onboarding.send_count })}</dd>
          </OnboardingFacts>
          <section class="section" aria-labelledby="onboarding-actions">
            <h2 id="onboarding-actions">{t('onboardings.actions')}</h2>
            <ActionButtons record={record} waiting={waiting} />
            {allowed.edit ? (
              <AssignAndDue onboarding={onboarding} members={members} onChange={change} />
            ) : null}
          </section>
          <ActionDialogs record={record} name={name} />
          <ClientLink onboardingId={id} version={version} onChanged={record.changed} />
          <OnboardingPayments
            onboardingId={id}
            version={version}
            sent={onboarding.send_count > 0}
            onChanged={record.changed}
            onRefresh={() => record.act(() => refreshTemplate(id), t('payments.refreshed'))}
          />
        </>
      )}
      <OnboardingReview
        onboardingId={id}
        version={version}
        steps={steps}
        onChanged={record.changed}
        onWaiting={setWaiting}
      />
      <SignatureEvidence onboardingId={id} version={version} />
      <OnboardingTimeline onboardingId={id} version={version} />
    </>
  );
}
