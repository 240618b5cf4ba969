import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { currentLanguage, initI18n } from './lib/i18n';
import './styles.css';

await initI18n();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App language={currentLanguage()} />
  </StrictMode>,
);
