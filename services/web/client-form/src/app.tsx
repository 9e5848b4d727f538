import { useEffect, useState } from 'preact/hooks';
import { createTranslate, loadMessages, type Translate } from './i18n.ts';

export function App() {
  const [t, setT] = useState<Translate | null>(null);
  useEffect(() => {
    void loadMessages('en-US').then((messages) => setT(() => createTranslate('en-US', messages)));
  }, []);
  return (
    <main id="main">
      <h1>{t ? t('app.loading') : 'Loading…'}</h1>
    </main>
  );
}
