/** Placeholder: the onboarding's answers, each with its review actions and versions. */
export function OnboardingReview(props: { onboardingId: string; version: number; onChanged: () => void }) {
  void props;
  return null;
}
