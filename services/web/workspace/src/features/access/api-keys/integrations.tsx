import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, type ApiKey } from '../../../api.ts';
import { formatDate } from '../../../dates.ts';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { useReauth } from '../reauth.tsx';
import { scopeList } from '../../../../../../access/contract/scopes.ts';
import { ErrorMessage, ScreenHeading, Status } from '../../../ui/index.ts';
import { CreateKeyDialog, RevokeKeyDialog, RotateKeyDialog } from './key-dialogs.tsx';

type Open = { kind: 'create' } | { kind: 'rotate'; key: ApiKey } | { kind: 'revoke'; key: ApiKey } | null;

/** Integrations: the team's API keys (owners and admins). */
export function IntegrationsScreen() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const { withReauth, dialog: reauthDialog } = useReauth();

  const load = useCallback(async () => {
    const answer = await call<{ data: ApiKey[] }>('GET', '/api-keys');
    if (answer.ok) {
      setKeys(answer.data.data);
      setError(null);
    } else setError(problemMessage(answer.problem, t));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <ScreenHeading>{t('integrations.title')}</ScreenHeading>
      <p>{t('integrations.intro')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />
      <button type="button" class="button-primary" onClick={() => setOpen({ kind: 'create' })}>
        {t('key.create')}
      </button>
      <h2 class="section-title">{t('integrations.keys')}</h2>
      {keys === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : keys.length === 0 ? (
        <p>{t('integrations.none')}</p>
      ) : (
        <ul class="rows">
          {keys.map((key) => (
            <li key={key.id} class="row">
              <h3 class="row-title">{key.name}</h3>
              <dl class="facts">
                <dt>{t('key.permissions')}</dt>
                <dd>{scopeList(key.scopes)}</dd>
                <dt>{t('key.created')}</dt>
                <dd>{formatDate(key.created_at)}</dd>
                <dt>{t('key.expires')}</dt>
                <dd>{key.expires_at ? formatDate(key.expires_at) : t('key.never')}</dd>
                <dt>{t('key.status')}</dt>
                <dd>{t(`key.status.${key.status}`)}</dd>
              </dl>
              {key.status === 'active' ? (
                <div class="actions">
                  <button
                    type="button"
                    class="button-secondary"
                    aria-describedby={`key-${key.id}`}
                    onClick={() => setOpen({ kind: 'rotate', key })}
                  >
                    {t('key.rotate')}
                  </button>
                  <button
                    type="button"
                    class="button-danger"
                    aria-describedby={`key-${key.id}`}
                    onClick={() => setOpen({ kind: 'revoke', key })}
                  >
                    {t('key.revoke')}
                  </button>
                  <span id={`key-${key.id}`} class="visually-hidden">
                    {key.name}
                  </span>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {open?.kind === 'create' ? (
        <CreateKeyDialog
          withReauth={withReauth}
          onChanged={() => void load()}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'rotate' ? (
        <RotateKeyDialog
          apiKey={open.key}
          withReauth={withReauth}
          onChanged={() => void load()}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'revoke' ? (
        <RevokeKeyDialog
          apiKey={open.key}
          withReauth={withReauth}
          onChanged={(message) => {
            setOpen(null);
            setStatus(message);
            void load();
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {reauthDialog}
    </>
  );
}
