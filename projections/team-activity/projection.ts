import { teamFeedProjection } from '../team-feed-projection.ts';
import { TEAM_ACTIVITY_EVENT_TYPES, toActivityRecord } from './fold.ts';

/**
 * team_activity: the workspace's audit view (GET /workspace/v1/audit): sign-ins, lockouts,
 * key creations, rotations and revocations, member changes, team settings changes.
 * ./fold.ts makes the records; a team feed (../team-feed-projection.ts) writes them.
 */
export const teamActivityProjection = teamFeedProjection({
  table: 'team_activity',
  canHandle: TEAM_ACTIVITY_EVENT_TYPES,
  subjectColumn: 'actor_member_id',
  entry(event) {
    const record = toActivityRecord(event);
    return record && { ...record, subject: record.actorMemberId };
  },
});
