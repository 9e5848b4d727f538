import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { ScreenHeading } from '../ui.tsx';
import { OnboardingReview } from './onboarding-review.tsx';
import { OnboardingTimeline } from './onboarding-timeline.tsx';

/** One onboarding: its state and actions, the answers under review, and its timeline. */
export function OnboardingScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  void navigate;
  // Bumped after every change made on this page so the review and the timeline read again.
  const [version, setVersion] = useState(0);
  return (
    <>
      <ScreenHeading>{t('title.onboarding')}</ScreenHeading>
      <OnboardingReview onboardingId={id} version={version} onChanged={() => setVersion((v) => v + 1)} />
      <OnboardingTimeline onboardingId={id} version={version} />
    </>
  );
}
