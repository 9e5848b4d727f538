/**
 * "Waiting for review", the one definition the workspace's list, filter, Home and
 * notifications share: an onboarding is waiting for the team while any of its answers was
 * submitted by the client and not reviewed since (responses.status = 'submitted', the first
 * submission as well as a resubmission after a send-back) and no answer sent back still waits
 * on the client (that reads "Changes requested").
 *
 *   select ... from onboardings o where ${awaitingReviewSql('o')}
 */
export function awaitingReviewSql(onboarding: string): string {
  return `(exists (select 1 from responses awaiting where awaiting.onboarding_id = ${onboarding}.id and awaiting.status = 'submitted')
    and not (${onboarding}.review_fields @? '$.* ? (@ == "sent_back")'))`;
}

/** The number of answers of one onboarding waiting for the team's review. */
export function answersAwaitingReviewSql(onboarding: string): string {
  return `(select count(*)::int from responses awaiting where awaiting.onboarding_id = ${onboarding}.id and awaiting.status = 'submitted')`;
}

/**
 * The same definition for the select list of a page (a few rows): probed row by row through
 * the index of submitted answers. Written with `exists`, the planner may hash every submitted
 * answer of every team once per page instead (bench part 12: 64,000 for a page of 25).
 */
export function awaitingReviewColumnSql(onboarding: string): string {
  return `(${answersAwaitingReviewSql(onboarding)} > 0
    and not (${onboarding}.review_fields @? '$.* ? (@ == "sent_back")'))`;
}
