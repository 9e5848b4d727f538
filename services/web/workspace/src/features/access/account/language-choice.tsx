import { useState } from 'preact/hooks';
import { call } from '../../../../../shared/api/client.ts';
import { LANGUAGE_NAMES, LOCALES } from '../../../../../../../shared/i18n/locales.ts';
import { api } from '../../../api.ts';
import { t } from '../../../i18n.ts';
import { ErrorMessage, Select, useAction } from '../../../ui/index.ts';
import type { Session } from '../api.ts';

const TEAMS = '';

/**
 * Your account's language: the workspace and the emails it sends this member, one of the
 * nine languages of the client's form, or the team's. The page reloads in the chosen language
 * so that every screen, date and number reads in it at once.
 */
export function LanguageChoice({ me }: { me: Session }) {
  const [chosen, setChosen] = useState<string>(me.member.locale ?? TEAMS);
  const { busy, error, run, fail } = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const locale = chosen === TEAMS ? null : (chosen as (typeof LOCALES)[number]);
    await run(async () => {
      const answer = await call(api.PUT('/workspace/v1/me/locale', { body: { locale } }));
      if (answer.ok) location.reload();
      else fail(answer.problem);
    });
  };
  return (
    <section class="card section" aria-labelledby="language-heading">
      <h2 id="language-heading">{t('account.language.title')}</h2>
      <form onSubmit={(event) => void save(event)} noValidate class="plain">
        <ErrorMessage text={error} />
        <Select
          label={t('account.language.label')}
          value={chosen}
          onValue={setChosen}
          hint={t('account.language.hint')}
          options={[
            {
              value: TEAMS,
              label: t('account.language.team', { language: LANGUAGE_NAMES[teamLocale(me)] }),
            },
            ...LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale], lang: locale })),
          ]}
        />
        <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
          {t('account.language.save')}
        </button>
      </form>
    </section>
  );
}

const teamLocale = (me: Session) =>
  (LOCALES as readonly string[]).includes(me.team.locale)
    ? (me.team.locale as (typeof LOCALES)[number])
    : LOCALES[0];
