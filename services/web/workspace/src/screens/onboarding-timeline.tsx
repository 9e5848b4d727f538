/** Placeholder: the onboarding's timeline, read from its events. */
export function OnboardingTimeline(props: { onboardingId: string; version: number }) {
  void props;
  return null;
}
