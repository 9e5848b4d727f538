import { t } from '../i18n.ts';
import { ScreenHeading } from '../ui.tsx';

/** Placeholder until the screen is built. */
export function TemplatesScreen({ navigate }: { navigate: (path: string) => void }) {
  void navigate;
  return <ScreenHeading>{t('title.templates')}</ScreenHeading>;
}
