/**
 * Home as other code may use it (services/app/ composes it): the workspace route that
 * gathers what needs the team this week.
 */
export { homeRoutes } from './home-routes.ts';
