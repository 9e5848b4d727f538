import { useEffect, useState } from 'preact/hooks';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationPreferences as Preferences,
} from '../../../../../notifications/contract/notifications.ts';
import { t } from '../../i18n.ts';
import { ErrorMessage, Select, Status, useAction } from '../../ui/index.ts';
import { getPreferences, putPreferences } from './api.ts';

/**
 * Your account's notifications: for each kind of news, in the app and by email, in the app
 * only, or off (docs/decisions/0083-notification-choices.md). Saved with one button.
 */
export function NotificationPreferences() {
  const [chosen, setChosen] = useState<Preferences | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { busy, error, run, fail } = useAction();

  useEffect(() => {
    void getPreferences().then((answer) => {
      if (answer.ok) setChosen(answer.data.preferences);
      else fail(answer.problem);
    });
  }, [fail]);

  const save = (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    setStatus(null);
    void run(async () => {
      const answer = await putPreferences(chosen);
      if (!answer.ok) return fail(answer.problem);
      setChosen(answer.data.preferences);
      setStatus(t('notifications.preferences.saved'));
    });
  };

  return (
    <section class="card section" aria-labelledby="notification-preferences-title">
      <h2 id="notification-preferences-title">{t('notifications.preferences.title')}</h2>
      <p>{t('notifications.preferences.help')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />
      {chosen === null ? (
        <p class="loading">{t('notifications.loading')}</p>
      ) : (
        <form onSubmit={save} noValidate class="plain notification-preferences">
          {NOTIFICATION_KINDS.map((kind) => (
            <Select
              key={kind}
              label={t(`notifications.preferences.kind.${kind}`)}
              value={chosen[kind]}
              onValue={(channel) => setChosen({ ...chosen, [kind]: channel as Preferences[typeof kind] })}
              options={NOTIFICATION_CHANNELS.map((channel) => ({
                value: channel,
                label: t(`notifications.preferences.channel.${channel}`),
              }))}
            />
          ))}
          <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
            {t('notifications.preferences.save')}
          </button>
        </form>
      )}
    </section>
  );
}
