import { expect } from 'vitest';
import { DomainError, fold, type Decider, type DomainEvent } from '../../shared/commands/decider.ts';

/**
 * Given events, when a command, then events or a refusal: the one test helper of every
 * decider (in the shape of Emmett's `DeciderSpecification.for({ decide, evolve, initialState })`).
 *
 *   const given = DeciderSpecification.for(clientDecider);
 *   given(created).when(update).then([updated]);
 *   given().when(create).thenThrows('client_exists');
 *
 * `given` takes events one by one or as lists; the state is their fold from the decider's
 * initial state. Each `then…` runs `decide` once more, so a test may ask several of them.
 */
export const DeciderSpecification = {
  for<State, Command, Event extends DomainEvent>(
    decider: Pick<Decider<State, Command, Event>, 'decide' | 'evolve' | 'initialState'>,
  ) {
    return (...given: (Event | readonly Event[])[]) => {
      const events = given.flat() as Event[];
      const state = fold(decider, events);
      return { state, when: (command: Command) => whenCommand(decider, events, state, command) };
    };
  },
};

function whenCommand<State, Command, Event extends DomainEvent>(
  decider: Pick<Decider<State, Command, Event>, 'decide' | 'evolve' | 'initialState'>,
  given: Event[],
  state: State,
  command: Command,
) {
  const events = () => decider.decide(command, state);
  return {
    /** The events decided (throws what decide throws). */
    events,
    then: (expected: Event[]) => expect(events()).toEqual(expected),
    thenNothingHappened: () => expect(events()).toEqual([]),
    thenTypes: (types: string[]) => expect(events().map((event) => event.type)).toEqual(types),
    /** The state after the given events and the decided ones. */
    thenState: (): State => fold(decider, [...given, ...events()]),
    /** The command is refused with a DomainError of this code (and these details); returns it. */
    thenThrows(code: string, details?: Record<string, unknown>): DomainError {
      let error: unknown;
      try {
        events();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe(code);
      if (details) expect((error as DomainError).details).toEqual(details);
      return error as DomainError;
    },
  };
}
