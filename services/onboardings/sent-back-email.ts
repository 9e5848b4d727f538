import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import { queueClientEmail, type SentBackAnswer } from './client-email.ts';
import { clearTokenFromInvites } from './client-link.ts';
import { activeTokenHash } from './decider/index.ts';
import { clientFacts } from './onboarding-facts.ts';
import type { RunOptions } from './onboarding-unit-of-work.ts';

/**
 * The email that tells the client which answers the team sent back (rejected or changes
 * requested) and why: ONE `changes_requested` email per send, however many answers it
 * names, queued in the command's transaction (held with EventStoreDB like the invite). It
 * links the client's current link (its clear token from the invite that issued it,
 * client-link.ts) at the first of those answers in the form's order: /f/<token>?field=<id>.
 * A link that no longer works (expired, archived) is left out: the email still says why.
 */
export function sentBackEmailEffect(deps: {
  publicUrl: string;
  vault: Pick<PersonalDataVault, 'open'>;
  now: Date;
}): NonNullable<RunOptions['effects']> {
  return async ({ state, events, eventIds }, tx, held) => {
    if (state.status === 'absent') return;
    const sent = events.flatMap((event, index) =>
      event.type === 'response_rejected' || event.type === 'response_changes_requested'
        ? [{ event, index }]
        : [],
    );
    const first = sent[0];
    if (!first) return;
    const client = await clientFacts(tx, state.team_id, state.client_id);
    const team = await teamFacts(tx, state.team_id);
    if (client.status !== 'active' || !client.email || !team) return;
    const order = state.snapshot.steps.flatMap((step) => step.fields);
    const label = (fieldId: string) => order.find((field) => field.id === fieldId)?.label ?? fieldId;
    const rank = (fieldId: string) => order.findIndex((field) => field.id === fieldId);
    const answers = sent.map(({ event }) => event.data).sort((a, b) => rank(a.field_id) - rank(b.field_id));
    const hash = activeTokenHash(state, deps.now);
    await queueClientEmail(tx, {
      kind: 'changes_requested',
      extra: {
        token: hash === null ? undefined : await clearTokenFromInvites(tx, deps.vault, state.id, hash),
        fieldId: answers[0]!.field_id,
        answers: answers.map((data): SentBackAnswer => ({
          label: label(data.field_id),
          decision: sent.some(
            ({ event }) => event.type === 'response_rejected' && event.data.field_id === data.field_id,
          )
            ? 'rejected'
            : 'changes_requested',
          reason: data.reason,
        })),
      },
      publicUrl: deps.publicUrl,
      team,
      recipient: { name: client.name, email: client.email },
      onboarding: state,
      eventId: eventIds[first.index],
      at: deps.now,
      held,
    });
  };
}
