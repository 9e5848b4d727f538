import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the layout's joints (eslint.config.js, boundaryRules): each one
 * fires on a planted violation, and the allowed import beside it passes.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it('shared/ imports no feature and no projection', async () => {
    expect(
      await restricted("export { x } from '../../services/access/index.ts';\n", 'shared/http/planted.ts'),
    ).toHaveLength(1);
    expect(
      await restricted("export { x } from '../../projections/teams/queries.ts';\n", 'shared/db/planted.ts'),
    ).toHaveLength(1);
    expect(
      await restricted("export { x } from '../projections/runner.ts';\n", 'shared/db/planted.ts'),
    ).toEqual([]);
  });

  it('a feature imports another only through its index.ts or its contract/', async () => {
    expect(
      await restricted(
        "export { x } from '../access/workspace/permissions.ts';\n",
        'services/hooks/planted.ts',
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        "export { x } from '../../clients/clients-routes.ts';\n",
        'services/onboardings/portal/planted.ts',
      ),
    ).toHaveLength(1);
    expect(
      await restricted("export { x } from '../access/index.ts';\n", 'services/hooks/planted.ts'),
    ).toEqual([]);
    expect(
      await restricted("export { x } from '../access/contract/scopes.ts';\n", 'services/hooks/planted.ts'),
    ).toEqual([]);
    expect(await restricted("export { x } from './hook-payload.ts';\n", 'services/hooks/planted.ts')).toEqual(
      [],
    );
  });

  it('the composition, too, reaches a feature through its index.ts', async () => {
    expect(
      await restricted("export { x } from '../../mail/mailer.ts';\n", 'services/app/apis/planted.ts'),
    ).toHaveLength(1);
    expect(
      await restricted("export { x } from '../../mail/index.ts';\n", 'services/app/apis/planted.ts'),
    ).toEqual([]);
  });

  it('the web apps import of the server only contract/ files and the locales', async () => {
    const screen = 'services/web/workspace/src/features/hooks/planted.tsx';
    expect(
      await restricted("export { x } from '../../../../../hooks/hook-payload.ts';\n", screen),
    ).toHaveLength(1);
    expect(await restricted("export { x } from '../../../../../../shared/clock.ts';\n", screen)).toHaveLength(
      1,
    );
    expect(
      await restricted("export { x } from '../../../../../hooks/contract/webhook-event-types.ts';\n", screen),
    ).toEqual([]);
    expect(
      await restricted("export { x } from '../../../../../../shared/i18n/locales.ts';\n", screen),
    ).toEqual([]);
    expect(await restricted("export { x } from '../../ui/ui.tsx';\n", screen)).toEqual([]);
  });
});
