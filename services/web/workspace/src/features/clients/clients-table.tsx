import type { ApiAnswer } from '../../api.ts';
import { t } from '../../i18n.ts';
import { Link } from '../../ui/index.ts';
import '../onboardings/lists.css';

type ClientRow = ApiAnswer<'/workspace/v1/clients', 'get'>['data'][number];

/**
 * One page of clients as a table on desktop, compact rows on a phone (lists.css): the name
 * linking to the client, the email, and the latest onboarding's status and template, with
 * "waiting for review" beside it, so the list answers "where is this client?" at a glance.
 */
export function ClientsTable({
  rows,
  navigate,
}: {
  rows: readonly ClientRow[];
  navigate: (path: string) => void;
}) {
  return (
    <table class="list-table clients-table">
      <caption class="visually-hidden">{t('clients.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('clients.list.client')}</th>
          <th scope="col">{t('field.email')}</th>
          <th scope="col">{t('clients.list.latest')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((client) => {
          const latest = client.latest_onboarding ?? null;
          return (
            <tr key={client.id}>
              <th scope="row" class="list-client">
                <Link href={`/workspace/clients/${client.id}`} navigate={navigate}>
                  {client.name}
                </Link>
                {client.company ? <span class="list-muted"> · {client.company}</span> : null}
              </th>
              <td>{client.email}</td>
              <td data-label={t('clients.list.latest')}>
                {latest ? (
                  <>
                    {t(`onboardings.statusLabel.${latest.status}`)}
                    <span class="list-muted"> · {latest.template_name}</span>
                    {latest.awaiting_review ? (
                      <span class="review-state review-state-awaiting_review">
                        {' '}
                        · {t('clients.list.awaiting')}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span class="list-muted">{t('clients.list.noOnboarding')}</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
