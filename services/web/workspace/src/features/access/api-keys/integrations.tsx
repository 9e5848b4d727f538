import { formatDate, formatDateTime } from '../../../dates.ts';
import { t } from '../../../i18n.ts';
import { useReauth } from '../reauth.tsx';
import { scopeList } from '../../../../../../access/contract/scopes.ts';
import { ErrorMessage, ScreenHeading, Status } from '../../../ui/index.ts';
import { Rows } from '../../../ui/rows.tsx';
import { useList } from '../../../ui/use-list.ts';
import { listApiKeys, type ApiKey } from '../api.ts';
import { CreateKeyDialog, RevokeKeyDialog, RotateKeyDialog } from './key-dialogs.tsx';

type Open = { kind: 'create' } | { kind: 'rotate'; key: ApiKey } | { kind: 'revoke'; key: ApiKey };

/** Integrations: the team's API keys (owners and admins). */
export function IntegrationsScreen() {
  const {
    items: keys,
    error,
    setError,
    status,
    open,
    setOpen,
    load,
    done,
  } = useList<ApiKey, Open>(listApiKeys);
  const { withReauth, dialog: reauthDialog } = useReauth();
  // A key created or rotated: the list again, and a read's earlier problem is gone once it reads.
  const reload = () => void load().then((read) => read && setError(null));

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
      <Rows
        items={keys}
        none={t('integrations.none')}
        row={(key) => (
          <li key={key.id} class="row">
            <h3 class="row-title">
              {key.name}
              {key.key_prefix ? (
                <>
                  {' '}
                  <code>{t('key.prefixShown', { prefix: key.key_prefix })}</code>
                </>
              ) : null}
            </h3>
            <dl class="facts">
              <dt>{t('key.createdBy')}</dt>
              <dd>{key.created_by ?? t('key.createdByOperator')}</dd>
              <dt>{t('key.lastUsed')}</dt>
              <dd>{key.last_used_at ? formatDateTime(key.last_used_at) : t('key.neverUsed')}</dd>
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
                  {key.key_prefix ? `${key.name} ${key.key_prefix}` : key.name}
                </span>
              </div>
            ) : null}
          </li>
        )}
      />
      {open?.kind === 'create' ? (
        <CreateKeyDialog withReauth={withReauth} onChanged={reload} onClose={() => setOpen(null)} />
      ) : null}
      {open?.kind === 'rotate' ? (
        <RotateKeyDialog
          apiKey={open.key}
          withReauth={withReauth}
          onChanged={reload}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'revoke' ? (
        <RevokeKeyDialog
          apiKey={open.key}
          withReauth={withReauth}
          onChanged={done}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {reauthDialog}
    </>
  );
}
