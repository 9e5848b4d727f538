/** Home's public face: the screen a signed-in member lands on (what needs the team this week). */
export { HomeScreen } from './home.tsx';
