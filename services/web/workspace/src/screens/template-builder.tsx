import { t } from '../i18n.ts';
import { ScreenHeading } from '../ui.tsx';

/** Placeholder until the screen is built. */
export function TemplateBuilderScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  void navigate;
  void id;
  return <ScreenHeading>{t('title.template')}</ScreenHeading>;
}
