/** The current members of a team are read from the teams read model (projections/teams/queries.ts). */
export { currentMember, type CurrentMember } from '../../projections/teams/queries.ts';
