import { useEffect, useState } from 'preact/hooks';
import type { SignedIn } from '../../api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage, Link, ScreenHeading } from '../../ui/index.ts';
import { getHome, type Home } from './api.ts';
import { HomeSection, type SectionName } from './home-section.tsx';
import { TemplateFiguresTable } from './template-figures.tsx';
import { UsageMeter } from './usage-meter.tsx';
import './home.css';

const SECTIONS: SectionName[] = [
  'awaiting_review',
  'changes_requested',
  'overdue',
  'due_this_week',
  'recently_completed',
  'drafts',
];

/** What a team without templates or clients does first, each a link to where it is done. */
function FirstSteps({ home, navigate }: { home: Home; navigate: (path: string) => void }) {
  return (
    <section class="home-section home-first" aria-labelledby="home-first">
      <h2 id="home-first">{t('home.empty.title')}</h2>
      <p>{t('home.empty.lead')}</p>
      <ul class="home-steps">
        {home.counts.templates === 0 ? (
          <li>
            <Link href="/workspace/templates" navigate={navigate}>
              {t('home.empty.template')}
            </Link>
          </li>
        ) : null}
        {home.counts.clients === 0 ? (
          <li>
            <Link href="/workspace/clients" navigate={navigate}>
              {t('home.empty.client')}
            </Link>
          </li>
        ) : null}
        <li>
          <Link href="/workspace/onboardings" navigate={navigate}>
            {t('home.empty.onboarding')}
          </Link>
        </li>
      </ul>
    </section>
  );
}

/**
 * Home: what needs the team this week, section by section (the member's own first), the
 * month's usage against the plan and the month's figures per template. A team without
 * templates or clients is first told what to do.
 */
export function HomeScreen({ me, navigate }: { me: SignedIn; navigate: (path: string) => void }) {
  const [home, setHome] = useState<Home | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void getHome().then((answer) => {
      if (answer.ok) setHome(answer.data);
      else setError(problemMessage(answer.problem, t));
    });
  }, []);
  return (
    <>
      <ScreenHeading>{t('home.title')}</ScreenHeading>
      <p class="lead">{t('home.greeting', { name: me.member.name })}</p>
      <ErrorMessage text={error} />
      {!home ? (
        error ? null : (
          <p class="loading" role="status">
            {t('app.loading')}
          </p>
        )
      ) : (
        <>
          <UsageMeter usage={home.usage} />
          {home.counts.templates === 0 || home.counts.clients === 0 ? (
            <FirstSteps home={home} navigate={navigate} />
          ) : null}
          <div class="home-grid">
            {SECTIONS.map((name) => (
              <HomeSection key={name} name={name} section={home.sections[name]} navigate={navigate} />
            ))}
          </div>
          <TemplateFiguresTable figures={home.templates} navigate={navigate} />
        </>
      )}
    </>
  );
}
